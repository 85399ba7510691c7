/**
 * Stored sessions as a SESSION argument of the read commands (context, plan, prune, branch, export,
 * migrate): a session id or unique prefix of the Bonsai database, read through @bonsai/store. Nothing
 * is loaded up front: each question reads only the rows it needs (the path from a leaf, the entries
 * after the latest compaction, the derived columns), and the store stays open until the command ends.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildSessionContext, compactionSummaryMessage, CURRENT_SESSION_VERSION, messageFromEntry } from "@bonsai/core";
import { DB_FILE_NAME, defaultDbPath, openCurrentReader, openStoreForReading, SessionLookupError, type StoredSessionReads, type StoreReader } from "@bonsai/store/reader";
import { UserError } from "./errors";
import { sqliteBinding } from "./native-binding";
import type { ContextListing, LoadedSession, SessionSource } from "./session-source";

/**
 * The stored session an argument names, opened for reading (the database stays open until the
 * command closes the session); a clear error when it is neither a file nor a stored id.
 */
export async function openStoredSession(arg: string, dataDir: string | undefined): Promise<LoadedSession> {
  const dbPath = storedDbPath(arg, dataDir);
  let store: StoredSessionReads;
  try {
    store = await openStoreForReading({ path: dbPath, nativeBinding: sqliteBinding() });
  } catch (err) {
    throw new UserError(err instanceof Error ? err.message : String(err));
  }
  return (await openedSession(store, arg, dbPath, true)) as LoadedSession;
}

/**
 * openStoredSession for a pi session in a database that needs nothing but reading (this build's
 * schema, no operation to recover), without loading anything else; undefined for any other (a
 * Claude Code or Codex session, a database to migrate or recover): open that with
 * openStoredSession. The same errors as openStoredSession.
 */
export function openStoredPiSession(arg: string, dataDir: string | undefined): LoadedSession | undefined {
  const dbPath = storedDbPath(arg, dataDir);
  let store: StoreReader | null;
  try {
    store = openCurrentReader({ path: dbPath, nativeBinding: sqliteBinding() });
  } catch (err) {
    throw new UserError(err instanceof Error ? err.message : String(err));
  }
  return store ? (openedSession(store, arg, dbPath, false) as LoadedSession | undefined) : undefined;
}

/** the database a stored id is looked up in (an error when there is none) */
function storedDbPath(arg: string, dataDir: string | undefined): string {
  const dbPath = dataDir === undefined ? defaultDbPath() : path.join(path.resolve(dataDir), DB_FILE_NAME);
  if (!fs.existsSync(dbPath)) throw new UserError(`${arg}: no such file (and no Bonsai database at ${dbPath} to look the id up in)`);
  return dbPath;
}

/**
 * The session `arg` names in the open store (closed on an error, and when it gives undefined): a
 * Claude Code or Codex session is read whole (`foreign`: a promise of it) or, without `foreign`,
 * undefined.
 */
function openedSession(store: StoredSessionReads, arg: string, dbPath: string, foreign: boolean): LoadedSession | Promise<LoadedSession> | undefined {
  try {
    let sessionId: string;
    try {
      sessionId = store.resolveSessionId(arg);
    } catch (err) {
      if (err instanceof SessionLookupError) throw new UserError(`${arg}: no such file, and ${err.message}`);
      throw err;
    }
    const source = { kind: "stored", sessionId, dbPath } as const;
    // a Claude Code or Codex session: the formats layer's view of it (agent, links, the lines as read), held whole
    if (store.getSession(sessionId)?.readOnly) {
      if (foreign) return storedForeignSession(store, source, arg);
      store.close();
      return undefined;
    }
    return storedSession(store, source, arg);
  } catch (err) {
    store.close();
    throw err;
  }
}

/** A stored Claude Code or Codex session: read whole through the whole store (it knows their formats). */
async function storedForeignSession(reader: StoredSessionReads, source: SessionSource & { kind: "stored" }, label: string): Promise<LoadedSession> {
  reader.close();
  const [{ openStore }, { foreignSession }] = await Promise.all([import("@bonsai/store"), import("./session-file")]);
  const store = openStore({ path: source.dbPath, nativeBinding: sqliteBinding() });
  try {
    const summary = store.getSession(source.sessionId);
    if (!summary) throw new UserError(`${label}: the session ${source.sessionId} is no longer in the database`);
    return { ...foreignSession(store.readSession(source.sessionId), { source, label, sourcePath: summary.sourcePath, close: () => store.close() }), commits: () => store.getSessionCommits(source.sessionId) };
  } catch (err) {
    store.close();
    throw err;
  }
}

function storedSession(store: StoredSessionReads, source: SessionSource & { kind: "stored" }, label: string): LoadedSession {
  const id = source.sessionId;
  const summary = store.getSession(id);
  if (!summary) throw new UserError(`${label}: the session ${id} is no longer in the database`);
  return {
    source,
    label,
    header: store.getHeader(id),
    issues: [],
    // the store migrated the source on import; what the source file was written in is kept here
    migration: { migrated: summary.sourceVersion < CURRENT_SESSION_VERSION, fromVersion: summary.sourceVersion, toVersion: CURRENT_SESSION_VERSION },
    leafId: summary.leafId,
    title: summary.title,
    sourcePath: summary.sourcePath,
    entryCount: summary.entryCount,
    hasEntry: (entryId) => store.hasEntry(id, entryId),
    entries: () => store.loadEntries(id),
    path: (leafId) => store.getPath(id, leafId),
    context: (leafId) => buildSessionContext(store.getContextEntries(id, leafId), leafId),
    contextSummary: (leafId) => store.getContextSummary(id, leafId),
    contextLists: (leafId) => store.getContextLists(id, leafId),
    contextFigures: (leafId) => store.getContextFigures(id, leafId),
    contextListing: (leafId, head, tail) => storedContextListing(store, id, leafId, head, tail),
    compactionPlan: (leafId, settings) => store.getCompactionPlan(id, leafId, settings),
    prunePlan: (leafId, config) => store.getPrunePlan(id, leafId, config),
    pruneSummary: (leafId, config) => {
      const { summary, change } = store.getPruneDryRun(id, leafId, config);
      return change ? { ...summary, change } : summary;
    },
    pruneChange: (leafId, config) => store.getPruneContextChange(id, leafId, config),
    branch: (fromId, toId, budget) => store.getBranchPlan(id, fromId, toId, budget),
    jsonl: () => store.renderJsonl(id),
    commits: () => store.getSessionCommits(id),
    savedSettings: () => store.getSettingsJson(),
    close: () => store.close(),
  };
}

/**
 * The text listing of a long stored context: the rows of only its first `head` and newest `tail`
 * messages (getContextMessages with a window) and their entries, the figures of the whole context
 * from the window's aggregate (`unlisted`). Undefined when the window lists every message (a
 * context that fits, or one the columns cannot fold): the caller lists the whole context.
 */
function storedContextListing(store: StoredSessionReads, id: string, leafId: string | null, head: number, tail: number): ContextListing | undefined {
  const rows = store.getContextMessages(id, leafId, { head, tail });
  if (!rows?.unlisted) return undefined;
  const { summary, unlisted, compaction } = rows;
  const listed = summary.entryIds.map((entryId, i) => {
    // the latest compaction's summary is the first message; every other message is its entry's
    const entry = i === 0 && compaction?.id === entryId ? undefined : store.getEntry(id, entryId);
    const message = entry !== undefined ? messageFromEntry(entry) : i === 0 && compaction ? compactionSummaryMessage(compaction) : undefined;
    return { index: i < unlisted.at ? i : i + unlisted.count, entryId, role: String(summary.roles[i]), tokens: summary.tokens[i] as number, message };
  });
  let estimatedTokens = unlisted.tokens;
  for (const t of summary.tokens) estimatedTokens += t;
  return {
    listed,
    count: listed.length + unlisted.count,
    sent: rows.sent.filter((role) => role !== null).length + unlisted.sent,
    estimatedTokens,
    models: summary.models,
    thinkingLevel: summary.thinkingLevel,
  };
}

