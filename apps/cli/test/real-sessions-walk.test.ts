/**
 * Every real session of ../shared/fixtures/real (pi, Claude Code, Codex; read there, never copied)
 * through what a user runs after `bonsai import`: ls, context, plan, prune --dry-run, export md and
 * html, search. None prints "(this is a bug)" or a stack trace; the figure is the same in ls,
 * context and prune and within the window, which is never smaller than a usage the file records;
 * the entry count is the one the import reported; the HTML page shows the session's markup as text;
 * a word of the first prompt finds the session.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_REAL_SESSIONS, HAVE_REAL_SESSIONS, realSession } from "./real-sessions";
import { bonsai } from "./run-cli";

type Obj = Record<string, unknown>;
const num = (v: unknown): number => (typeof v === "number" ? v : 0);
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The largest prompt (input side) any usage in the file records, whatever branch or model it is on. */
function largestRecordedUsage(file: string): number {
  let best = 0;
  for (const text of readFileSync(file, "utf8").split("\n")) {
    if (text.trim() === "") continue;
    const line = JSON.parse(text) as unknown;
    if (!isObj(line)) continue;
    const message = isObj(line.message) ? line.message : undefined;
    const usage = message && isObj(message.usage) ? message.usage : undefined;
    if (line.type === "message" && usage) best = Math.max(best, num(usage.input) + num(usage.cacheRead) + num(usage.cacheWrite));
    if (line.type === "assistant" && usage) best = Math.max(best, num(usage.input_tokens) + num(usage.cache_read_input_tokens) + num(usage.cache_creation_input_tokens));
    const payload = isObj(line.payload) ? line.payload : undefined;
    const info = payload?.type === "token_count" && isObj(payload.info) ? payload.info : undefined;
    if (info && isObj(info.last_token_usage)) best = Math.max(best, num(info.last_token_usage.input_tokens));
  }
  return best;
}

/** What a user must never see on stderr (stdout holds the sessions' own text, stack traces in tool output included). */
function expectClean(what: string, r: { stderr: string }): void {
  expect(r.stderr, what).not.toContain("this is a bug");
  expect(r.stderr, what).not.toMatch(/^\s+at .+:\d+:\d+\)?$/mu);
}

const TAGS = ["script", "iframe", "object", "embed", "form", "textarea", "style", "svg", "system-reminder", "command-name"];
const countTag = (html: string, tag: string): number => html.match(new RegExp(`<${tag}[\\s>/]`, "giu"))?.length ?? 0;

interface Listed {
  id: string;
  agent: string;
  sourcePath: string;
  entryCount: number;
  contextTokens: number;
  firstMessage: string | null;
}

let dataDir = "";
/** source file -> the entry count `bonsai import` reported for it */
const reported = new Map<string, number>();
let listed: Listed[] = [];
let template = "";

describe.skipIf(!HAVE_REAL_SESSIONS)("every real session through the user's commands", () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "bonsai-real-walk-"));
    const files = ALL_REAL_SESSIONS.map((s) => realSession(s.agent, s.name));
    const imported = await bonsai("import", ...files, "--data-dir", dataDir);
    expectClean("import", imported);
    expect(imported.code, imported.stderr).toBe(0);
    for (const line of imported.stdout.split("\n")) {
      const m = /^imported\s+(.+?) -> \S+: (\d+) entries/u.exec(line);
      if (m) reported.set(m[1]!, Number(m[2]));
    }
    const again = await bonsai("import", ...files, "--data-dir", dataDir);
    expect(again.stdout).not.toMatch(/^(imported|appended|reimported)\s/mu);
    const ls = await bonsai("ls", "--json", "--data-dir", dataDir);
    expectClean("ls", ls);
    listed = JSON.parse(ls.stdout) as Listed[];
    // the page's own markup, for the count of tags an export may hold without any session text
    const tiny = path.join(dataDir, "tiny.jsonl");
    writeFileSync(tiny, `${JSON.stringify({ type: "session", version: 3, id: "tiny", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" })}\n${JSON.stringify({ type: "message", id: "a1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } })}\n`);
    const out = path.join(dataDir, "tiny.html");
    expect((await bonsai("export", tiny, "--format", "html", "-o", out)).code).toBe(0);
    template = readFileSync(out, "utf8");
  }, 300_000);

  afterAll(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("stores every file once, with the entry count its import reported", () => {
    expect(listed).toHaveLength(ALL_REAL_SESSIONS.length);
    for (const s of listed) expect(s.entryCount, s.sourcePath).toBe(reported.get(s.sourcePath));
  });

  it.each(ALL_REAL_SESSIONS.map((s) => [s.agent, s.name]))("%s %s", async (_agent, name) => {
    const file = realSession(_agent, name);
    const s = listed.find((x) => x.sourcePath === file)!;
    expect(s, file).toBeDefined();
    const dd = ["--data-dir", dataDir];

    const context = await bonsai("context", s.id, "--json", ...dd);
    expectClean("context", context);
    const c = JSON.parse(context.stdout) as { contextTokens: number; contextWindow: number };
    expect(c.contextTokens).toBe(s.contextTokens);
    expect(c.contextTokens).toBeLessThanOrEqual(c.contextWindow);
    expect(c.contextWindow).toBeGreaterThanOrEqual(largestRecordedUsage(file));
    expectClean("context text", await bonsai("context", s.id, ...dd));

    const plan = await bonsai("plan", s.id, "--json", ...dd);
    expectClean("plan", plan);
    expect(plan.code, plan.stderr).toBe(0);
    const prune = await bonsai("prune", s.id, "--dry-run", "--json", ...dd);
    expectClean("prune", prune);
    expect((JSON.parse(prune.stdout) as { contextTokensBefore: number }).contextTokensBefore).toBe(c.contextTokens);

    const md = await bonsai("export", s.id, "--format", "md", ...dd);
    expectClean("export md", md);
    expect(md.code, md.stderr).toBe(0);
    const htmlFile = path.join(dataDir, `${s.id.slice(0, 12)}.html`);
    const html = await bonsai("export", s.id, "--format", "html", "-o", htmlFile, ...dd);
    expectClean("export html", html);
    const page = readFileSync(htmlFile, "utf8");
    for (const tag of TAGS) expect(countTag(page, tag), `<${tag}> in the page of ${name}`).toBeLessThanOrEqual(countTag(template, tag) + (tag === "svg" ? 1 : 0));
    for (const img of page.match(/<img\s[^>]*>/giu) ?? []) expect(img).toMatch(/ src="data:image\/[a-z+]+;base64,[^"]*"/u);

    const word = /[A-Za-z]{6,}/u.exec(s.firstMessage ?? "")?.[0];
    if (word) {
      const search = await bonsai("search", word, "--json", "--limit", "500", ...dd);
      expectClean("search", search);
      const hits = JSON.parse(search.stdout) as { sessionId: string }[];
      expect(hits.some((h) => h.sessionId === s.id), `search "${word}"`).toBe(true);
    }
  }, 120_000);
});
