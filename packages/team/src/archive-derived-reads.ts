/**
 * What ArchiveStore derives from an archived session's entries for the store's plan and preview
 * reads (getCompactionWindow, readSession): core's and the formats layer's pure
 * functions on the entries PostgreSQL gave, as the SQLite store derives the same from its columns.
 * The archive keeps no derived columns, so nothing here reads SQL: ArchiveStore resolves the
 * session through its one resolver (the access rule) and reads the rows first.
 */
import { getLastAssistantUsage, type SessionEntry, type SessionHeader } from "@bonsai/core";
import { piSession, type ReadSession } from "@bonsai/formats";
import type { SessionSummary } from "@bonsai/store";

/**
 * The entries that plan a compaction of `path` exactly as the whole path does (core
 * prepareCompaction): the path from its latest compaction, preceded by the last assistant message
 * with a usage before it when none follows it; the whole path without a compaction.
 */
export function compactionWindowOf(path: readonly SessionEntry[]): SessionEntry[] {
  const at = path.findLastIndex((e) => e.type === "compaction");
  if (at < 0) return [...path];
  const window = path.slice(at);
  if (getLastAssistantUsage(window) !== undefined) return window;
  const before = path.slice(0, at).findLast((e) => getLastAssistantUsage([e]) !== undefined);
  return before ? [before, ...window] : window;
}

/**
 * An archived session as the formats layer reads it: a push sends pi-form entries (a foreign
 * agent's own lines stay on the machine that pushed it), so it is a pi session of the agent and
 * title the push recorded.
 */
export function archivedReadSession(summary: SessionSummary, header: SessionHeader, entries: SessionEntry[], leafId: string | null): ReadSession {
  return { ...piSession(header, entries, { leafId, title: summary.title ?? null }), agent: summary.agent };
}
