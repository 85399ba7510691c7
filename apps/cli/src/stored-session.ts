/**
 * Stored sessions as a SESSION argument of the read commands (context, plan, prune, branch, export):
 * a session id or unique prefix of the Bonsai database, read through @bonsai/store.
 */
import * as fs from "node:fs";
import { buildIndex, CURRENT_SESSION_VERSION } from "@bonsai/core";
import { openStore, SessionLookupError } from "@bonsai/store";
import { UserError } from "./errors";
import type { LoadedSession, SessionSource } from "./session-source";
import { cliDbPath } from "./store-db";

/** The stored session an argument names; a clear error when it is neither a file nor a stored id. */
export function resolveStoredSource(arg: string): SessionSource {
  const dbPath = cliDbPath();
  if (!fs.existsSync(dbPath)) throw new UserError(`${arg}: no such file (and no Bonsai database at ${dbPath} to look the id up in)`);
  const store = openStore({ path: dbPath });
  try {
    return { kind: "stored", sessionId: store.resolveSessionId(arg), dbPath };
  } catch (err) {
    if (err instanceof SessionLookupError) throw new UserError(`${arg}: no such file, and ${err.message}`);
    throw err;
  } finally {
    store.close();
  }
}

export function loadStoredSession(source: SessionSource & { kind: "stored" }, label: string): LoadedSession {
  let store;
  try {
    store = openStore({ path: source.dbPath });
  } catch (err) {
    throw new UserError(err instanceof Error ? err.message : String(err));
  }
  try {
    const summary = store.getSession(source.sessionId);
    if (!summary) throw new UserError(`${label}: the session ${source.sessionId} is no longer in the database`);
    const header = store.getHeader(source.sessionId);
    // a Claude Code or Codex session: the formats layer's view of it (agent, links, the lines as read)
    const foreign = summary.readOnly !== null ? store.readSession(source.sessionId) : undefined;
    const entries = foreign ? foreign.entries : store.loadEntries(source.sessionId);
    const jsonl = store.renderJsonl(source.sessionId);
    return {
      source,
      label,
      header,
      entries,
      index: buildIndex(entries),
      issues: [],
      // the store migrated the source on import; what the source file was written in is kept here
      migration: { migrated: summary.sourceVersion < CURRENT_SESSION_VERSION, fromVersion: summary.sourceVersion, toVersion: CURRENT_SESSION_VERSION },
      leafId: summary.leafId,
      title: summary.title,
      stored: { sessionId: source.sessionId, jsonl: () => jsonl, sourcePath: summary.sourcePath },
      ...(foreign ? { foreign } : {}),
    };
  } finally {
    store.close();
  }
}
