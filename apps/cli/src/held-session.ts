/**
 * Sessions held whole in memory: a file read and parsed (pi / oh-my-pi), or a Claude Code or Codex
 * session from its reader, indexed and answered by core. Loaded only for those (session-file.ts): a
 * stored pi session is read through the store and never loads this or the parser.
 */
import {
  buildIndex,
  buildSessionContext,
  defaultLeafId,
  getPath,
  migrateSession,
  serializeSession,
  summarizePrunePlan,
  summarizeContext,
  planBranch,
  planPruningOf,
  prepareCompaction,
  summarizeCompaction,
  toolResultsOf,
  type ParsedSession,
  type PrunePlan,
  type PruneConfig,
  type SessionContext,
  type SessionEntry,
  type SessionHeader,
} from "@bonsai/core";
import { UserError, describeFsError } from "./errors";
import { readSessionFile } from "./read-session-file";
import type { LoadedSession, SessionSource } from "./session-source";

export function readFile(source: SessionSource & { kind: "file" }, label: string): ParsedSession {
  try {
    return readSessionFile(source.path);
  } catch (err) {
    throw new UserError(`${label}: ${describeFsError(err)}`);
  }
}

/**
 * Migrates (in memory) and indexes a parsed session; `label` names it in error messages, `reads`
 * (the formats Bonsai reads) ends the one for a file that is not a session.
 */
export function loadParsedSession(parsed: ParsedSession, source: SessionSource, label: string, reads: string): LoadedSession {
  if (!parsed.header) {
    const reason = parsed.issues.find((i) => i.kind === "missing-header" || i.kind === "invalid-header" || i.kind === "empty");
    const where = reason && reason.line > 0 ? ` (line ${reason.line})` : "";
    throw new UserError(`${label}: not a session file: ${reason ? reason.message.replace(/^not a session: /, "") : "no session header"}${where}; ${reads}`);
  }
  const { header, entries, issues } = parsed;
  const migration = migrateSession(header, entries);
  return sessionOfEntries(header, entries, {
    source,
    label,
    issues,
    migration,
    leafId: defaultLeafId(entries),
    title: null,
    sourcePath: source.kind === "file" ? source.path : null,
    jsonl: () => serializeSession(header, entries),
    close: () => undefined,
  });
}

/** What a session held in memory has besides its header and entries. */
type HeldSessionParts = Pick<LoadedSession, "source" | "label" | "issues" | "migration" | "leafId" | "title" | "sourcePath" | "foreign" | "jsonl" | "close">;

/** A session whose entries are all in memory (a file read whole, or a stored Claude Code or Codex session), indexed. */
export function sessionOfEntries(header: SessionHeader, entries: SessionEntry[], parts: HeldSessionParts): LoadedSession {
  const index = buildIndex(entries);
  const path = (leafId: string | null): SessionEntry[] => getPath(index, leafId);
  const context = (leafId: string | null): SessionContext => buildSessionContext(entries, leafId, index);
  const prunePlan = (leafId: string | null, config: PruneConfig): PrunePlan => planPruningOf(toolResultsOf(path(leafId)), config);
  return {
    ...parts,
    header,
    entryCount: entries.length,
    hasEntry: (id) => index.byId.has(id),
    entries: () => entries,
    path,
    context,
    contextSummary: (leafId) => summarizeContext(context(leafId)),
    compactionPlan: (leafId, settings) => {
      const preparation = prepareCompaction(path(leafId), settings);
      return preparation && summarizeCompaction(preparation);
    },
    prunePlan,
    pruneSummary: (leafId, config) => summarizePrunePlan(prunePlan(leafId, config)),
    branch: (fromId, toId, budget) => planBranch(index, fromId, toId, budget),
  };
}

