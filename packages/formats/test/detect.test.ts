/** Detection from content, and the one sentence for files no reader knows. */
import { describe, expect, it } from "vitest";
import { describeUnknown, detectFormat, firstValues, piFlavor, readSession, UnknownFormatError } from "../src/index";

const line = (v: object): string => `${JSON.stringify(v)}\n`;

describe("detectFormat", () => {
  it("knows pi, Claude Code and Codex files by their first lines, whatever their names", () => {
    expect(detectFormat(line({ type: "session", version: 3, id: "x", timestamp: "t", cwd: "/" })).reader?.format).toBe("pi");
    expect(detectFormat(line({ type: "session", id: "x", timestamp: "t", cwd: "/" })).reader?.format).toBe("pi");
    expect(detectFormat(line({ type: "summary", summary: "t", leafUuid: "u" })).reader?.format).toBe("claude-code");
    expect(detectFormat(line({ type: "file-history-snapshot", messageId: "m", snapshot: {} })).reader?.format).toBe("claude-code");
    expect(detectFormat(line({ parentUuid: null, type: "user", uuid: "u", sessionId: "s", message: { role: "user", content: "x" } })).reader?.format).toBe("claude-code");
    expect(detectFormat(line({ timestamp: "t", type: "session_meta", payload: { id: "x" } })).reader?.format).toBe("codex");
  });

  it("needs only the first whole lines (a prefix of the file)", () => {
    const head = line({ timestamp: "t", type: "session_meta", payload: { id: "x" } }) + '{"timestamp":"t","type":"respo';
    expect(detectFormat(head).reader?.format).toBe("codex");
    expect(firstValues(head)).toHaveLength(2);
  });

  it("says in one sentence what an unknown file looks like and what Bonsai reads", () => {
    expect(describeUnknown([])).toMatch(/^not a session file: it is empty; Bonsai reads pi \/ oh-my-pi sessions/);
    const notJson = detectFormat("hello world\n");
    expect(notJson.reader).toBeNull();
    expect(!notJson.reader && notJson.reason).toMatch(/^not a session file: it is not JSON lines \(its first line is not JSON\); Bonsai reads/);
    const other = detectFormat(line({ type: "event", level: "info", msg: "x" }));
    expect(!other.reader && other.reason).toMatch(/^not a session file: it is JSON lines but no session format Bonsai knows \(its first line is an object of type "event" with keys type, level, msg\); Bonsai reads .* Claude Code transcripts .* Codex rollouts/);
    expect(() => readSession("[1,2]\n")).toThrow(UnknownFormatError);
    for (const reason of [describeUnknown([]), describeUnknown([undefined]), describeUnknown([{ a: 1 }])]) expect(reason.split(". ")).toHaveLength(1);
  });

  it("tells oh-my-pi from pi by the traits only one of them writes", () => {
    const header = { type: "session" as const, version: 3, id: "x", timestamp: "t", cwd: "/" };
    expect(piFlavor({ ...header, title: "named" }, [])).toBe("omp");
    expect(piFlavor(header, [{ type: "model_change", id: "a", parentId: null, timestamp: "t", model: "openai/gpt" }])).toBe("omp");
    expect(piFlavor(header, [{ type: "model_change", id: "a", parentId: null, timestamp: "t", provider: "openai", modelId: "gpt" }])).toBe("pi");
    expect(piFlavor(header, [])).toBe("pi");
  });
});
