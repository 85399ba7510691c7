/**
 * The red team's session for two Bonsai writers at once (issue 31): a session imported into a data
 * folder and pruned once (its originals in the restore table, its backup taken), to which the agent
 * then added new tool outputs that the store has not read yet. Keeps every tool output as it was
 * first written, so that a trial can count the outputs found in neither the file nor the restore
 * table, and the text the file must hold again after Restore.
 */
import fs from "node:fs";
import path from "node:path";
import { parseSessionText, type SessionEntry } from "@bonsai/core";
import { createEngine } from "@bonsai/engine";
import { openStore, type SqliteSessionStore } from "@bonsai/store";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";

export interface PrunedSession {
  dir: string;
  file: string;
  dataDir: string;
  db: string;
  sessionId: string;
  /** the agent's file before Bonsai first wrote it (what `<file>.bonsai-original` holds) */
  original: string;
  /** the file as the agent wrote it, the new outputs included: what Restore must give back */
  unpruned: string;
  /** every tool output's line as the agent wrote it, by entry id */
  outputs: Map<string, string>;
  /** the tool outputs the agent added after the first prune */
  added: number;
  /** the ids of the outputs the first prune replaced */
  firstPruned: number;
}

const texts = new Map<number, string>();
function baseText(entries: number): string {
  let t = texts.get(entries);
  if (t === undefined) {
    t = sessionToJsonl(generateSession({ entries, seed: 31, compactionInterval: 0, branchProbability: 0 }));
    texts.set(entries, t);
  }
  return t;
}

function toolOutputLines(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (!line.includes('"toolResult"')) continue;
    const e = JSON.parse(line) as SessionEntry;
    if (e.type === "message" && (e.message as { role?: string }).role === "toolResult") out.set(e.id, line);
  }
  return out;
}

/** `count` turns of an assistant tool call and its output (about 3 KB each), chained from `parent`. */
export function newToolOutputs(count: number, parent: string, prefix: string): string {
  const lines: string[] = [];
  let at = Date.parse("2026-01-01T00:00:00Z");
  for (let i = 0; i < count; i++) {
    const callId = `${prefix}call${i}`;
    const assistant = {
      type: "message",
      id: `${prefix}a${i}`,
      parentId: parent,
      timestamp: new Date(at).toISOString(),
      message: {
        role: "assistant",
        content: [{ type: "toolCall", id: callId, name: "bash", arguments: { command: `cat notes/${i}.txt` } }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 20, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: "toolUse",
        timestamp: at,
      },
    };
    const output = {
      type: "message",
      id: `${prefix}o${i}`,
      parentId: assistant.id,
      timestamp: new Date(at + 500).toISOString(),
      message: {
        role: "toolResult",
        toolCallId: callId,
        toolName: "bash",
        content: [{ type: "text", text: `output ${i}: ${"line of a long tool output \u00e9\u6f22 ".repeat(90)}` }],
        isError: false,
        timestamp: at + 500,
      },
    };
    lines.push(JSON.stringify(assistant), JSON.stringify(output));
    parent = output.id;
    at += 1000;
  }
  return `${lines.join("\n")}\n`;
}

/** The last entry's id of a session file. */
export function lastEntryId(file: string): string {
  return parseSessionText(fs.readFileSync(file, "utf8")).entries.at(-1)!.id;
}

/**
 * Imports a generated session of `entries` entries into `dir/data`, prunes it (originals kept,
 * backup taken), then appends `added` new tool outputs to its file as the agent does.
 */
export async function preparePrunedSession(dir: string, entries: number, added: number): Promise<PrunedSession> {
  const file = path.join(dir, "live.jsonl");
  const dataDir = path.join(dir, "data");
  const db = path.join(dataDir, "bonsai.db");
  fs.mkdirSync(dataDir, { recursive: true });
  const original = baseText(entries);
  fs.writeFileSync(file, original);
  const store = openStore({ path: db, backgroundIndexing: false });
  let sessionId: string;
  let firstPruned: number;
  try {
    const report = await store.importFile(file);
    if (!report.sessionId) throw new Error(report.message);
    sessionId = report.sessionId;
    const engine = createEngine({ store, dataDir, offline: true });
    try {
      firstPruned = (await engine.pruneToolOutputs(sessionId)).prunedCount;
    } finally {
      await engine.close();
    }
  } finally {
    store.close();
  }
  if (firstPruned === 0) throw new Error("the first prune pruned nothing: the session is too small");
  const more = newToolOutputs(added, lastEntryId(file), "new");
  fs.appendFileSync(file, more);
  const unpruned = original + more;
  return { dir, file, dataDir, db, sessionId, original, unpruned, outputs: toolOutputLines(unpruned), added, firstPruned };
}

/** The originals the restore table keeps for a session, by entry id. */
export function keptOriginals(store: SqliteSessionStore, sessionId: string): Map<string, string> {
  const rows = store.db.prepare("SELECT entry_id, original_json FROM pruned_outputs WHERE session_id = ?").all(sessionId) as { entry_id: string; original_json: string }[];
  return new Map(rows.map((r) => [r.entry_id, r.original_json]));
}

/**
 * The tool outputs found in neither the file (as written) nor the restore table (byte for byte),
 * and how many of them the file holds pruned.
 */
export function lostOutputs(s: PrunedSession, store: SqliteSessionStore): { lost: string[]; pruned: number } {
  const inFile = new Map<string, string>();
  for (const line of fs.readFileSync(s.file, "utf8").split("\n")) {
    if (line === "") continue;
    inFile.set((JSON.parse(line) as { id?: string }).id ?? "", line);
  }
  const kept = keptOriginals(store, s.sessionId);
  const lost: string[] = [];
  let pruned = 0;
  for (const [id, line] of s.outputs) {
    const now = inFile.get(id);
    if (now === line) continue;
    if (now !== undefined && kept.get(id) === line) pruned++;
    else lost.push(id);
  }
  return { lost, pruned };
}
