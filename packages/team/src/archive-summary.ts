/**
 * An archived session as the store API's `SessionSummary`, for one principal: the session row, its
 * counts and its leaf read from the entries, and the fields a local file has and an archived copy
 * does not (source path, pruned originals, detachment) given as an archive holds them.
 */
import { REDO_MARKER_TYPE, UNDO_MARKER_TYPE, type SessionEntry, type SessionHeader } from "@bonsai/core";
import type { SessionSummary } from "@bonsai/store";
import { deriveColumns } from "@bonsai/store/derive";
import type pg from "pg";
import { ARCHIVE_READ_ONLY, archiveKey } from "./archive-identity";
import type { Principal } from "./people";
import { ReadableSessionsSql } from "./readable-sql";

const AGENTS = new Set<SessionSummary["agent"]>(["pi", "omp", "claude-code", "codex"]);

interface SummaryRow {
  pk: string;
  session_id: string;
  project: string;
  pushed_by: string;
  agent: string;
  title: string | null;
  cwd: string | null;
  header: string;
  started_at: string | null;
  pushed_at: Date;
  entry_count: number;
  compactions: number;
  messages: number;
  leaf_id: string | null;
  first_user: string | null;
}

/**
 * Bonsai's Undo and Redo of a compaction (core undo-markers.ts: a `custom` entry naming it): an
 * undone compaction is not counted, as in the local list, until it is redone.
 */
const UNDO_MARKER = `e.entry::jsonb->>'customType' = '${UNDO_MARKER_TYPE}' AND e.entry::jsonb->'data'->>'undid' = 'compaction'`;
const REDO_MARKER = `e.entry::jsonb->>'customType' = '${REDO_MARKER_TYPE}' AND e.entry::jsonb->'data'->>'redid' = 'compaction'`;

/** One row per session the principal may read (`where` narrows it; its parameters follow $1, the principal's projects). */
const SUMMARY_SQL = (where: string): string => `
  SELECT s.id AS pk, s.session_id, p.name AS project, u.name AS pushed_by, s.agent, s.title, s.cwd, s.header, s.started_at, s.pushed_at, s.entry_count,
         c.compactions, c.messages,
         (SELECT l.entry_id FROM entries l WHERE l.session_pk = s.id ORDER BY l.seq DESC LIMIT 1) AS leaf_id,
         (SELECT f.entry FROM entries f WHERE f.session_pk = s.id AND f.type = 'message' AND f.entry LIKE '%"role":"user"%' ORDER BY f.seq LIMIT 1) AS first_user
    FROM sessions s JOIN projects p ON p.id = s.project_id JOIN people u ON u.id = s.pushed_by
    CROSS JOIN LATERAL (SELECT (count(*) FILTER (WHERE e.type = 'compaction') - count(*) FILTER (WHERE e.type = 'custom' AND ${UNDO_MARKER})
                                + count(*) FILTER (WHERE e.type = 'custom' AND ${REDO_MARKER}))::int AS compactions,
                               count(*) FILTER (WHERE e.type = 'message')::int AS messages
                          FROM entries e WHERE e.session_pk = s.id) c
   WHERE ${where}
   ORDER BY s.pushed_at DESC, s.id DESC`;

/** The session's header, typed as read: a header that is not an object reads as an empty one. */
export function parseHeader(text: string): SessionHeader {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as SessionHeader;
  } catch {
    // fall through: an archived header is untrusted text
  }
  return { type: "session", version: 3, id: "", timestamp: "", cwd: "" } as SessionHeader;
}

function firstUserText(entryJson: string | null): string {
  if (entryJson === null) return "";
  try {
    return deriveColumns(JSON.parse(entryJson) as SessionEntry).userText ?? "";
  } catch {
    return "";
  }
}

function summaryOf(row: SummaryRow): SessionSummary & { pk: string } {
  const header = parseHeader(row.header);
  const agent = AGENTS.has(row.agent as SessionSummary["agent"]) ? (row.agent as SessionSummary["agent"]) : "pi";
  const pushedAt = row.pushed_at.toISOString();
  return {
    pk: row.pk,
    // the archive's key of the session (archive-identity.ts): two people's sessions of one id are two sessions
    id: archiveKey({ project: row.project, pushedBy: row.pushed_by, sessionId: row.session_id }),
    headerId: typeof header.id === "string" && header.id !== "" ? header.id : row.session_id,
    title: row.title,
    cwd: row.cwd ?? "",
    sourcePath: null,
    sourceFormat: agent === "claude-code" || agent === "codex" ? agent : "pi-jsonl",
    agent,
    compactionCount: row.compactions,
    readOnly: ARCHIVE_READ_ONLY,
    parentSession: null,
    sourceVersion: typeof header.version === "number" ? header.version : 3,
    createdAt: row.started_at ?? pushedAt,
    updatedAt: pushedAt,
    importedAt: pushedAt,
    entryCount: row.entry_count,
    messageCount: row.messages,
    firstMessage: firstUserText(row.first_user),
    leafId: row.leaf_id,
    prunedCount: 0,
    generation: 0,
    detached: null,
  };
}

/** Every session the principal may read, most recently pushed first. */
export async function archivedSessionSummaries(pool: pg.Pool, principal: Principal): Promise<(SessionSummary & { pk: string })[]> {
  const sql = new ReadableSessionsSql(principal);
  return (await pool.query<SummaryRow>(SUMMARY_SQL(sql.where), sql.params)).rows.map(summaryOf);
}

/** The session of the archive's row `pk`, when the principal may read it. */
export async function archivedSessionSummary(pool: pg.Pool, principal: Principal, pk: string): Promise<(SessionSummary & { pk: string }) | undefined> {
  const sql = new ReadableSessionsSql(principal, pk).and("s.id = $2");
  const rows = (await pool.query<SummaryRow>(`${SUMMARY_SQL(sql.where)} LIMIT 1`, sql.params)).rows;
  return rows[0] && summaryOf(rows[0]);
}
