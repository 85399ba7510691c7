/**
 * Claude Code and Codex sessions through the contract: uploaded as the window uploads them, listed
 * with their agent, drawn (compaction nodes, agent events titled by their kind), what the model
 * sees; every call that would write is refused with one sentence; the JSONL, HTML and pi exports
 * (downloads, and the desktop app's save dialog); "Continue in pi" writes a new pi session in pi's
 * folder and the copy takes changes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { unpackSkeleton, type PackedSkeleton } from "@bonsai/core";
import type { PiCopy, SessionSummaryDto } from "@bonsai/ipc";
import { createBackend, type Backend, type HostDialogs } from "../src/index";
import { importUpload, ok, useBackend } from "./support";

const real = path.resolve(import.meta.dirname, "../../../../shared/fixtures/real");
const CLAUDE = path.join(real, "claude-code/entireio__cli__b0_dc55b3a1dc_1_full.jsonl");
const CODEX = path.join(real, "codex/EntityProcess__agentv__00_34f597b72d_1_full.jsonl");
const haveReal = fs.existsSync(CLAUDE) && fs.existsSync(CODEX);
if (!haveReal) console.warn(`real Claude Code / Codex files not found under ${real}: backend tests of them skipped`);

const current = useBackend((dataDir) => ({ PI_CODING_AGENT_DIR: path.join(dataDir, "pi-agent") }));
let backend: Backend;
beforeEach(() => {
  backend = current();
});

/** Uploads a real file as the window does; `copy` = the uploaded file Bonsai imported (its source). */
async function importCopy(file: string): Promise<{ copy: string; session: SessionSummaryDto }> {
  const { results } = await importUpload(backend.dispatch, path.basename(file), fs.readFileSync(file));
  expect(results[0]).toMatchObject({ ok: true, warnings: [] });
  const { sessions } = ok<{ sessions: SessionSummaryDto[] }>(await backend.dispatch("listSessions", {}));
  const session = sessions.find((s) => s.id === results[0]?.sessionId) as SessionSummaryDto;
  return { copy: session.sourcePath as string, session };
}

/** The text of a prepared download (exportSession's url), as `bonsai serve` would stream it. */
function downloaded(url: string): string {
  const download = backend.takeDownload(url.slice("/download/".length));
  if (!download) throw new Error(`no download ${url}`);
  const text = fs.readFileSync(download.file, "utf8");
  download.done();
  return text;
}

describe.skipIf(!haveReal)("Claude Code and Codex sessions in the app's backend", () => {
  it("lists them with their agent and compactions, draws compaction nodes and titled agent events, shows what the model sees", async () => {
    const { session } = await importCopy(CLAUDE);
    expect(session).toMatchObject({ agent: "claude-code", compactionCount: 1, parentSession: null });
    expect(session.readOnly).toMatch(/^Bonsai never writes Claude Code sessions/);
    const opened = ok<{ skeleton: PackedSkeleton }>(await backend.dispatch("openSession", { sessionId: session.id }));
    const nodes = unpackSkeleton(opened.skeleton).nodes;
    expect(nodes.filter((n) => n.type === "compaction")).toHaveLength(1);
    expect(nodes.filter((n) => n.type === "agent_event" && n.customType === "system/microcompact_boundary")).toHaveLength(2);
    expect(nodes.filter((n) => n.pruned).length).toBeGreaterThan(0);
    // what the model sees: Claude Code's summary, then what follows it
    const preview = ok<{ messages: { sourceRole: string; entryId: string | null }[] }>(await backend.dispatch("getContextPreview", { sessionId: session.id }));
    const compaction = nodes.find((n) => n.type === "compaction");
    expect(preview.messages[0]).toMatchObject({ sourceRole: "compactionSummary", entryId: compaction?.id });
  });

  it("refuses every call that would write, with one sentence, and leaves the file alone", async () => {
    const { copy, session } = await importCopy(CODEX);
    const before = fs.readFileSync(copy);
    const leaf = session.leafId as string;
    const writes: [string, Record<string, unknown>][] = [
      ["compact", { sessionId: session.id, dryRun: true }],
      ["commitCompaction", { sessionId: session.id, result: { summary: "s", firstKeptEntryId: leaf, tokensBefore: 1 } }],
      ["applyPrune", { sessionId: session.id }],
      ["restorePruned", { sessionId: session.id }],
      ["prompt", { sessionId: session.id, text: "go on" }],
      ["setLabel", { sessionId: session.id, entryId: leaf, label: "x" }],
      ["navigate", { sessionId: session.id, targetId: leaf, summarize: true }],
    ];
    for (const [method, params] of writes) {
      const r = await backend.dispatch(method, params);
      expect(r.ok, method).toBe(false);
      if (!r.ok) {
        expect(r.error.code, method).toBe("conflict");
        expect(r.error.message, method).toMatch(/^Bonsai never writes Codex sessions: continue it in pi .*"Continue in pi" makes a pi copy/);
      }
    }
    // reading plans and moving the leaf write nothing
    expect((await backend.dispatch("planCompaction", { sessionId: session.id })).ok).toBe(true);
    expect((await backend.dispatch("navigate", { sessionId: session.id, targetId: leaf, summarize: false })).ok).toBe(true);
    expect(fs.readFileSync(copy).equals(before)).toBe(true);
    expect(fs.readdirSync(path.dirname(copy)).filter((f) => f.includes("bonsai"))).toEqual([]);
  });

  it("exports the agent's file, one offline HTML page and a pi session (downloads, and the desktop app's save dialog)", async () => {
    const { copy, session } = await importCopy(CLAUDE);
    type Export = { url: string; fileName: string; mimeType: string };
    const jsonl = ok<Export>(await backend.dispatch("exportSession", { sessionId: session.id, format: "jsonl" }));
    expect(downloaded(jsonl.url)).toBe(fs.readFileSync(copy, "utf8"));
    const html = ok<Export>(await backend.dispatch("exportSession", { sessionId: session.id, format: "html" }));
    expect(html.fileName).toMatch(/\.html$/);
    expect(html.mimeType).toMatch(/^text\/html/);
    const page = downloaded(html.url);
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain("default-src 'none'");
    const pi = ok<Export>(await backend.dispatch("exportSession", { sessionId: session.id, format: "pi", leafId: session.leafId }));
    expect(pi.fileName).toMatch(/\.pi\.jsonl$/);
    expect(JSON.parse(downloaded(pi.url).split("\n")[0] as string)).toMatchObject({ type: "session", version: 3, parentSession: copy });
    const missing = await backend.dispatch("exportSession", { sessionId: session.id, format: "html", leafId: "no-such-entry" });
    expect(missing.ok ? null : missing.error.code).toBe("not_found");

    // the desktop app: the main process's save dialog chooses the file
    const chosen = path.join(backend.dataDir, "chosen.html");
    const dialogs: HostDialogs = {
      openSessionFiles: async () => null,
      saveSessionFile: async (fileName, format) => (fileName.endsWith(".html") && format === "html" ? chosen : null),
      chooseFolder: async () => null,
      chooseGitRepository: async () => null,
      confirmSettings: async () => false,
    };
    const desktop = createBackend({ dataDir: backend.dataDir, dbPath: backend.dbPath, dialogs, env: {} });
    try {
      expect(ok<{ path: string }>(await desktop.dispatch("saveSessionAs", { sessionId: session.id, format: "html" })).path).toBe(chosen);
      expect(fs.readFileSync(chosen, "utf8")).toBe(page);
    } finally {
      await desktop.close();
    }
  });

  it("Continue in pi writes a new pi session in pi's folder, imports it, and the copy takes changes", async () => {
    const { copy, session } = await importCopy(CODEX);
    const before = fs.readFileSync(copy);
    const result = ok<PiCopy>(await backend.dispatch("continueInPi", { sessionId: session.id }));
    expect(result.file.startsWith(path.join(backend.dataDir, "pi-agent", "sessions", "--"))).toBe(true);
    expect(fs.existsSync(result.file)).toBe(true);
    expect(result.message).toBe(
      `Continued in pi: ${result.entryCount} entries of this Codex session written to ${result.file}, where pi resumes it (pi --session ${result.sessionId.slice(0, 8)}); the original was not changed. Left out: ${result.omitted.metadata} metadata lines, ${result.omitted.developerMessages} Codex developer instructions.`,
    );
    const { sessions } = ok<{ sessions: SessionSummaryDto[] }>(await backend.dispatch("listSessions", {}));
    const piCopy = sessions.find((s) => s.id === result.sessionId);
    expect(piCopy).toMatchObject({ agent: "pi", sourcePath: result.file, parentSession: copy, compactionCount: 2 });
    expect(piCopy?.readOnly).toBeUndefined();
    const label = await backend.dispatch("setLabel", { sessionId: result.sessionId, entryId: piCopy?.leafId, label: "from codex" });
    expect(label.ok).toBe(true);
    expect(fs.readFileSync(result.file, "utf8")).toContain('"label":"from codex"');
    expect(fs.readFileSync(copy).equals(before)).toBe(true);
  });

  it("a file no reader knows is one sentence in the import results, listed once, quoting nothing of it", async () => {
    const { results } = await importUpload(backend.dispatch, "events.jsonl", '{"level":"info","msg":"secret-value"}\n');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ ok: false, warnings: [] });
    expect(results[0]?.error).toBe(
      "not a session file: it is JSON lines but no session format Bonsai knows (its first line is an object with 2 keys); Bonsai reads pi / oh-my-pi sessions, Claude Code transcripts and Codex rollouts",
    );
  });
});
