/**
 * `bonsai compact`, `navigate`, `prompt` and applying `prune`, run in process through runCli against a
 * store in a temp data dir and the loopback model server.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openStore } from "@bonsai/store";
import { useMockOpenAiServer, type MockOpenAiServer } from "@bonsai/testkit";
import { bonsai } from "./run-cli";

const mock = useMockOpenAiServer({ beforeAll, afterAll, beforeEach });
let server: MockOpenAiServer;
let dir = "";
beforeEach(() => {
  server = mock();
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-engine-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const t = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
const x = (n: number) => "x".repeat(n);

/** a v3 session file: u1 -> a1 -> u2 -> a2 (+ big tool outputs when asked) */
function writeSession(withTools = false): string {
  const file = path.join(dir, "s.jsonl");
  const lines: unknown[] = [{ type: "session", version: 3, id: "sess", timestamp: t(0), cwd: "/p" }];
  const entries: [string, Record<string, unknown>][] = [
    ["u1", { role: "user", content: `Fix the parser ${x(16000)}`, timestamp: 1 }],
    ["a1", { role: "assistant", content: [{ type: "text", text: x(1600) }, { type: "toolCall", id: "c1", name: "edit", arguments: { path: "src/parse.ts" } }], api: "x", provider: "anthropic", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, stopReason: "toolUse", timestamp: 2 }],
    ...(withTools
      ? ([
          ["t1", { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: x(100000) }], isError: false, timestamp: 3 }],
          ["t2", { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: x(160000) }], isError: false, timestamp: 4 }],
        ] as [string, Record<string, unknown>][])
      : []),
    ["u2", { role: "user", content: `Now the printer ${x(90000)}`, timestamp: 5 }],
    ["a2", { role: "assistant", content: [{ type: "text", text: "done" }], api: "x", provider: "anthropic", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: 6 }],
  ];
  let parent: string | null = null;
  for (const [id, message] of entries) {
    lines.push({ type: "message", id, parentId: parent, timestamp: t(lines.length), message });
    parent = id;
  }
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return file;
}

const dataDir = () => path.join(dir, "data");

describe("bonsai compact", () => {
  it("compacts a session file offline (imported into the store, written through) and prints the summary", async () => {
    const file = writeSession();
    const r = await bonsai("compact", file, "--offline", "--data-dir", dataDir());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Compacted session \S+: entry \S+ keeps the history from u2 \(0 tokens before\)\. Summary by the offline summarizer:/);
    expect(r.stdout).toContain("## Goal\nFix the parser");
    expect(readFileSync(file, "utf8")).toContain('"type":"compaction"');
  });

  it("an offline compaction says so: in the store's tree, the Markdown export and the HTML export; a model's does not", async () => {
    const file = writeSession();
    expect((await bonsai("compact", file, "--offline", "--data-dir", dataDir())).code).toBe(0);
    const md = await bonsai("export", file, "--format", "md");
    expect(md.stdout).toMatch(/## Compaction summary[\s\S]*\n\*Written by Bonsai's offline summarizer \(no model\)\.\*\n/);
    const html = await bonsai("export", file, "--format", "html");
    expect(html.stdout).toContain('title="written by Bonsai&#39;s offline summarizer (no model)">offline summary</span>');
    const store = openStore({ path: path.join(dataDir(), "bonsai.db") });
    try {
      const [session] = store.listSessions();
      const compaction = store.getSkeleton(session!.id).nodes.find((n) => n.type === "compaction");
      expect(compaction?.offline).toBe(true);
    } finally {
      store.close();
    }
    // the same session compacted by the loopback model: no such label
    const other = path.join(dir, "model.jsonl");
    writeFileSync(other, readFileSync(writeSession(), "utf8"));
    expect((await bonsai("compact", other, "--base-url", server.baseUrl, "--model", "mock-model", "--data-dir", path.join(dir, "data2"))).code).toBe(0);
    const byModel = await bonsai("export", other, "--format", "md");
    expect(byModel.stdout).toContain("## Compaction summary");
    expect(byModel.stdout).not.toContain("Written by");
  });

  it("--dry-run --json with the loopback model: nothing written; the prompt carries the instructions", async () => {
    const file = writeSession();
    const r = await bonsai("compact", file, "--dry-run", "--json", "--instructions", "parser only", "--base-url", server.baseUrl, "--model", "mock-model", "--data-dir", dataDir());
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { dryRun: boolean; entryId: string | null; result: { summary: string; firstKeptEntryId: string } };
    expect(j).toMatchObject({ dryRun: true, entryId: null, result: { firstKeptEntryId: "u2" } });
    expect(readFileSync(file, "utf8")).not.toContain('"type":"compaction"');
    expect(server.chatRequests().some((b) => String(b.messages[1]?.content).endsWith("Additional focus: parser only"))).toBe(true);
  });

  it("errors are one line: unknown session, bad base URL", async () => {
    const a = await bonsai("compact", "nope", "--data-dir", dataDir());
    expect(a.code).toBe(1);
    expect(a.stderr.trim().split("\n")).toHaveLength(1);
    const b = await bonsai("compact", writeSession(), "--base-url", "ftp://x", "--model", "m", "--data-dir", dataDir());
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/model\.baseUrl/);
  });
});

describe("a model failure ends compact as it ends navigate", () => {
  it("one line on stderr, exit 1, nothing written, never an unexpected error", async () => {
    const file = writeSession();
    const before = readFileSync(file, "utf8");
    const sessionId = (JSON.parse((await bonsai("compact", file, "--offline", "--dry-run", "--json", "--data-dir", dataDir())).stdout) as { sessionId: string }).sessionId;
    const model = ["--base-url", server.baseUrl, "--model", "mock-model", "--data-dir", dataDir(), "--json"];
    server.setChatFallback(() => ({ kind: "error", status: 500, message: "the model broke" }));
    const compact = await bonsai("compact", sessionId, ...model);
    const navigate = await bonsai("navigate", sessionId, "u2", "--summarize", ...model);
    for (const r of [compact, navigate]) {
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/^bonsai: .*500 the model broke\n$/);
      expect(r.stderr).not.toContain("unexpected error");
    }
    expect(compact.stderr).toBe("bonsai: Summarization failed: 500 the model broke\n");
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("a 20 MB reply is a one-line error too, and no 20 MB summary is stored", async () => {
    const file = writeSession();
    const sessionId = (JSON.parse((await bonsai("compact", file, "--offline", "--dry-run", "--json", "--data-dir", dataDir())).stdout) as { sessionId: string }).sessionId;
    server.setChatFallback(() => ({ kind: "flood", bytes: 20 * 1024 * 1024 }));
    const r = await bonsai("compact", sessionId, "--base-url", server.baseUrl, "--model", "mock-model", "--data-dir", dataDir(), "--json");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("bonsai: Summarization failed: the model server sent more than 8 MiB; Bonsai stopped reading (a reply is never that long)\n");
    expect(readFileSync(file, "utf8")).not.toContain('"type":"compaction"');
  });
});

describe("bonsai config", () => {
  it("gets, sets (validated, folders made absolute) and unsets settings in the data folder's database", async () => {
    const all = await bonsai("config", "get", "--data-dir", dataDir());
    expect(all.code).toBe(0);
    expect(all.stdout).toContain(`# settings in ${path.join(dataDir(), "bonsai.db")}\n`);
    expect(all.stdout).toContain('model.apiKeyEnv = "OPENAI_API_KEY"\n');
    expect(all.stdout).toContain("sessionDirs = []\n");

    const set = await bonsai("config", "set", "model.apiKeyEnv", "MY_KEY", "--data-dir", dataDir());
    expect(set).toMatchObject({ code: 0, stderr: "" });
    expect(set.stdout).toBe(`model.apiKeyEnv = "MY_KEY"\nsaved in ${path.join(dataDir(), "bonsai.db")}; a running \`bonsai serve\` or desktop app uses it from its next call\n`);
    expect((await bonsai("config", "get", "model.apiKeyEnv", "--data-dir", dataDir())).stdout).toBe("MY_KEY\n");

    const dirs = await bonsai("config", "set", "sessionDirs", dir, "relative/sessions", "--data-dir", dataDir());
    expect(dirs.code).toBe(0);
    expect(dirs.stderr).toBe(`bonsai: warning: ${path.resolve("relative/sessions")} does not exist (yet)\n`);
    expect(JSON.parse((await bonsai("config", "get", "sessionDirs", "--json", "--data-dir", dataDir())).stdout)).toEqual([dir, path.resolve("relative/sessions")]);
    expect((await bonsai("config", "set", "compaction.enabled", "off", "--data-dir", dataDir())).code).toBe(0);
    expect((await bonsai("config", "set", "compaction.reserveTokens", "12000", "--data-dir", dataDir())).code).toBe(0);

    const store = openStore({ path: path.join(dataDir(), "bonsai.db") });
    try {
      expect(store.getSettingsJson()).toMatchObject({ model: { apiKeyEnv: "MY_KEY" }, sessionDirs: [dir, path.resolve("relative/sessions")], compaction: { enabled: false, reserveTokens: 12000 } });
    } finally {
      store.close();
    }
    expect((await bonsai("config", "unset", "model.apiKeyEnv", "--data-dir", dataDir())).stdout).toMatch(/^model\.apiKeyEnv = "OPENAI_API_KEY"\n/);
  });

  it("refuses bad keys and values with one line and changes nothing", async () => {
    const cases: [string[], number, RegExp][] = [
      [["config", "set", "model.apiKeyEnv", "NOT-A-NAME"], 1, /^bonsai: model\.apiKeyEnv must be an environment variable name/],
      [["config", "set", "model.baseUrl", "ftp://x"], 1, /^bonsai: model\.baseUrl must be an http:\/\/ or https:\/\/ URL/],
      [["config", "set", "compaction.reserveTokens", "many"], 2, /^bonsai: compaction\.reserveTokens must be a whole number/],
      [["config", "set", "compaction.reserveTokens", "900000"], 1, /must be smaller than model\.contextWindow/],
      [["config", "set", "nope", "1"], 2, /^bonsai: unknown setting "nope"/],
      [["config", "set", "theme"], 2, /^bonsai: theme takes one value, got 0/],
      [["config", "drop", "theme"], 2, /^bonsai: unknown action "drop"/],
    ];
    for (const [argv, code, message] of cases) {
      const r = await bonsai(...argv, "--data-dir", dataDir());
      expect(r.code, argv.join(" ")).toBe(code);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
    expect((await bonsai("config", "get", "model.baseUrl", "--data-dir", dataDir())).stdout).toBe("\n");
  });
});

describe("bonsai navigate / prompt / prune", () => {
  it("prune --leaf on a stored session is refused with one line, unless it is a dry run", async () => {
    const file = writeSession();
    const j = JSON.parse((await bonsai("compact", file, "--offline", "--dry-run", "--json", "--data-dir", dataDir())).stdout) as { sessionId: string };
    const r = await bonsai("prune", j.sessionId, "--leaf", "u1", "--data-dir", dataDir());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--leaf and --protect apply to a dry run/);
    const dry = await bonsai("prune", j.sessionId, "--leaf", "u1", "--protect", "skill", "--dry-run", "--json", "--data-dir", dataDir());
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe((await bonsai("prune", file, "--leaf", "u1", "--protect", "skill", "--dry-run", "--json")).stdout);
  });

  it("navigate --summarize attaches an offline branch summary and prints the editor text", async () => {
    const file = writeSession();
    const r = await bonsai("navigate", file, "u2", "--summarize", "--offline", "--data-dir", dataDir());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Moved the leaf of session \S+ from a2 to \S+\./);
    expect(r.stdout).toContain("Added branch summary");
    expect(r.stdout).toContain("Text of the selected message (to edit and send again):\nNow the printer");
  });

  it("prompt streams the reply and appends both messages", async () => {
    const file = writeSession();
    server.enqueue({ kind: "text", text: "Here is the answer." });
    const r = await bonsai("prompt", file, "What next?", "--base-url", server.baseUrl, "--model", "mock-model", "--data-dir", dataDir());
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Here is the answer.\n");
    const text = readFileSync(file, "utf8");
    expect(text).toContain('"content":[{"type":"text","text":"What next?"}]');
    expect(text).toContain("Here is the answer.");
    const failing = await bonsai("prompt", file, "again", "--base-url", server.baseUrl, "--model", "mock-model", "--data-dir", dataDir());
    expect(failing.code).toBe(0);
    const none = await bonsai("prompt", file, "x", "--data-dir", dataDir());
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/No model configured/);
  });

  it("prune SESSION applies to a stored session (originals kept); --dry-run keeps the plan path", async () => {
    const file = writeSession(true);
    const imported = await bonsai("compact", file, "--offline", "--dry-run", "--json", "--data-dir", dataDir());
    const sessionId = (JSON.parse(imported.stdout) as { sessionId: string }).sessionId;
    // the dry run of a stored session answers as the file's does (read from the store, no engine)
    const dry = await bonsai("prune", sessionId, "--dry-run", "--data-dir", dataDir());
    expect(dry.stdout).toMatch(/Would prune 1 tool results: the model would stop seeing about 24,991 tokens \(it sees [\d,]+ → [\d,]+\)\n {2}the outputs replaced hold 24,991 tokens \(tokensSaved\).*\n\n.*\n {2}t1 /);
    const dryJson = await bonsai("prune", sessionId, "--dry-run", "--json", "--data-dir", dataDir());
    expect(dryJson.stdout).toBe((await bonsai("prune", file, "--dry-run", "--json")).stdout);
    expect(readFileSync(file, "utf8")).not.toContain("[Output truncated");
    const r = await bonsai("prune", sessionId, "--data-dir", dataDir());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Pruned 1 old tool outputs of session \S+: the model stops seeing about 24,991 tokens \(the outputs replaced held 24,991; originals kept: restorable\)\.\n {2}t1\n$/);
    expect(readFileSync(file, "utf8")).toContain("[Output truncated - 25000 tokens]");
    const store = openStore({ path: path.join(dataDir(), "bonsai.db") });
    try {
      expect(store.listPruned(sessionId).map((p) => p.entryId)).toEqual(["t1"]);
    } finally {
      store.close();
    }
    const again = await bonsai("prune", sessionId, "--data-dir", dataDir());
    expect(again.stdout).toMatch(/^Nothing pruned/);
  });
});
