/**
 * The one title rule on real files: the session list and search hits name a session by the title
 * given, else its own name, else its first real prompt — never a line of another session (a Claude
 * Code summary line naming another session's leaf, a stray interruption notice first in the file).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MethodName, MethodOutput } from "@bonsai/ipc";
import { createBackend, type Backend } from "../src/index";
import { callParsed } from "./support";

const REAL = path.resolve(import.meta.dirname, "../../../../shared/fixtures/real");
const CLAUDE_OTHER_SUMMARIES = path.join(REAL, "claude-code/entireio__cli__cd_95adddad32_0_full.jsonl");
const PI_UNNAMED = path.join(REAL, "pi/raquezha__pi.dev__96_2b1009dcd7_0_full.jsonl");
const have = fs.existsSync(CLAUDE_OTHER_SUMMARIES) && fs.existsSync(PI_UNNAMED);

let dir: string;
let backend: Backend;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-title-rule-"));
  backend = createBackend({ dataDir: path.join(dir, "data"), env: { BONSAI_SESSIONS_DIRS: `${REAL}${path.delimiter}${dir}` } });
});
afterEach(async () => {
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = <M extends MethodName>(method: M, params: unknown): Promise<MethodOutput<M>> => callParsed(backend, method, params);
const lines = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Record<string, unknown>);

async function imported(file: string): Promise<{ id: string; title: string }> {
  const id = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
  const listed = (await call("listSessions", {})).sessions.find((s) => s.id === id)!;
  return { id, title: listed.title };
}

describe.skipIf(!have)("the title rule", () => {
  it("a Claude Code file whose summary lines name another session's leaf takes its first prompt, not those summaries", async () => {
    const all = lines(CLAUDE_OTHER_SUMMARIES);
    const uuids = new Set(all.map((l) => l.uuid));
    const summaries = all.filter((l) => l.type === "summary");
    // the fixture's quirk: every summary line names a leaf that is not in this file
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.every((s) => !uuids.has(s.leafUuid))).toBe(true);
    const firstPrompt = String((all.find((l) => l.type === "user")!.message as { content: string }).content);
    const { id, title } = await imported(CLAUDE_OTHER_SUMMARIES);
    expect(title).toBe(firstPrompt.split("\n")[0]!.slice(0, 120));
    expect(summaries.map((s) => s.summary)).not.toContain(title);
    // a search hit names it the same way
    const hits = (await call("searchSessions", { query: "attribution", sessionId: id })).hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(new Set(hits.map((h) => h.sessionTitle))).toEqual(new Set([title]));
  });

  it("a stray first line of another session (an interruption notice) never lends its title", async () => {
    const file = path.join(dir, "stray.jsonl");
    const base = { isSidechain: false, userType: "external", cwd: "/work/app", version: "2.1.7", gitBranch: "main" };
    const rows = [
      { ...base, parentUuid: "0b0b0b0b-0000-4000-8000-000000000000", sessionId: "11111111-aaaa-4bbb-8ccc-000000000001", type: "user", message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user for tool use]" }] }, uuid: "aaaaaaaa-0000-4000-8000-000000000001", timestamp: "2026-02-01T10:00:00.000Z" },
      { ...base, parentUuid: "aaaaaaaa-0000-4000-8000-000000000001", sessionId: "22222222-aaaa-4bbb-8ccc-000000000002", type: "user", message: { role: "user", content: "rename the exporter and keep its tests green" }, uuid: "aaaaaaaa-0000-4000-8000-000000000002", timestamp: "2026-02-01T10:01:00.000Z" },
      { ...base, parentUuid: "aaaaaaaa-0000-4000-8000-000000000002", sessionId: "22222222-aaaa-4bbb-8ccc-000000000002", type: "assistant", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-opus-4-5", content: [{ type: "text", text: "Renamed." }], stop_reason: "end_turn", usage: { input_tokens: 10, output_tokens: 2 } }, uuid: "aaaaaaaa-0000-4000-8000-000000000003", timestamp: "2026-02-01T10:01:05.000Z" },
    ];
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const { title } = await imported(file);
    expect(title).toBe("rename the exporter and keep its tests green");
    // the same when the stray line reads like a prompt: it is another session's line all the same
    const second = path.join(dir, "stray-prompt.jsonl");
    const strayPrompt = { ...rows[0]!, message: { role: "user", content: "please carry on with the migration" }, uuid: "bbbbbbbb-0000-4000-8000-000000000001" };
    const rest = rows.slice(1).map((r) => ({ ...r, sessionId: "33333333-aaaa-4bbb-8ccc-000000000003", uuid: r.uuid.replace("aaaaaaaa", "cccccccc"), parentUuid: r.parentUuid.replace("aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000001").replace("aaaaaaaa", "cccccccc") }));
    fs.writeFileSync(second, [strayPrompt, ...rest].map((r) => JSON.stringify(r)).join("\n") + "\n");
    expect((await imported(second)).title).toBe("rename the exporter and keep its tests green");
  });

  it("an unnamed pi session: the list, search hits and the given title follow the rule", async () => {
    const all = lines(PI_UNNAMED);
    expect(all[0]!.title).toBeUndefined();
    expect(all.some((l) => l.type === "session_info")).toBe(false);
    const firstUser = all.find((l) => l.type === "message" && (l.message as { role: string }).role === "user")!.message as { content: unknown };
    const text = typeof firstUser.content === "string" ? firstUser.content : (firstUser.content as { type: string; text?: string }[]).filter((b) => b.type === "text").map((b) => b.text).join("\n");
    const { id, title } = await imported(PI_UNNAMED);
    expect(title).toBe(text.trim().split("\n")[0]!.trim().slice(0, 120));
    const word = title.split(/\s+/u).find((w) => /^[a-z]{4,}$/iu.test(w))!;
    const hits = (await call("searchSessions", { query: word, sessionId: id })).hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.sessionTitle === title)).toBe(true);
    await call("setSessionTitle", { sessionId: id, title: "Skill creator" });
    expect((await call("searchSessions", { query: word, sessionId: id })).hits.every((h) => h.sessionTitle === "Skill creator")).toBe(true);
  });
});
