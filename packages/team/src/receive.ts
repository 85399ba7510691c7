/**
 * The archive's side of a push. A session is stored under (project, who pushed it, session id)
 * (archive-identity.ts): a push reads and changes only its pusher's own session, so two members'
 * sessions of one id never merge and no one retitles another's. Its entries are stored under
 * their position in the session (`seq`). A push asks what the archive holds (`have`: the next
 * position it lacks) and sends entries from there; each batch is one transaction that also moves
 * `have`, so a push interrupted anywhere and repeated stores every entry exactly once.
 */
import { deriveColumns } from "@bonsai/store/derive";
import type { SessionEntry } from "@bonsai/core";
import type pg from "pg";
import { ArchiveError } from "./errors";
import { projectFor, type Principal } from "./people";
import { checkPushedHeader, duplicateIdRefusal, firstDuplicateId } from "./pushed-session-check";

export interface PushedSession {
  sessionId: string;
  agent: string;
  title: string | null;
  cwd: string;
  /** the session's header line as JSON text */
  header: string;
  startedAt: string | null;
  /** the commits it produced (imported from a repository's checkpoint branch); absent: none */
  commits?: PushedCommit[];
}

/** A commit a pushed session produced, redacted as the rest of the push. */
export interface PushedCommit {
  sha: string;
  subject: string;
  date: string;
  files: string[];
}

export interface PushBatch {
  project: string;
  session: PushedSession;
  /** the position of `entries[0]` in the session */
  from: number;
  /** each entry's JSON text, in session order */
  entries: readonly string[];
}

const MAX_TEXT = 64 * 1024;

/** The next position the archive lacks for the caller's own session (0 when it has none of it). */
export async function archiveHas(pool: pg.Pool, principal: Principal, project: string, sessionId: string): Promise<number> {
  const projectId = await projectFor(pool, principal, project);
  const row = (await pool.query<{ entry_count: number }>("SELECT entry_count FROM sessions WHERE project_id = $1 AND pushed_by = $2 AND session_id = $3", [projectId, principal.personId, sessionId])).rows[0];
  return row?.entry_count ?? 0;
}

interface EntryRow {
  seq: number;
  id: string;
  parentId: string | null;
  type: string;
  at: string | null;
  json: string;
  text: string;
}

/** PostgreSQL text holds no U+0000. */
function pgText(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "\uFFFD") : text;
}

function entryRow(json: string, seq: number): EntryRow {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new ArchiveError("bad-request", `entry ${seq} of the push is not JSON`);
  }
  const entry = value as Record<string, unknown>;
  if (typeof entry !== "object" || entry === null || typeof entry.id !== "string" || typeof entry.type !== "string") {
    throw new ArchiveError("bad-request", `entry ${seq} of the push has no string id and type`);
  }
  const parentId = typeof entry.parentId === "string" ? entry.parentId : null;
  const derived = deriveColumns(entry as unknown as SessionEntry);
  const text = [derived.body, derived.tools, derived.paths].filter((part) => part !== "").join("\n").slice(0, MAX_TEXT);
  return {
    seq,
    id: pgText(entry.id),
    parentId: parentId === null ? null : pgText(parentId),
    type: pgText(entry.type),
    at: typeof entry.timestamp === "string" ? pgText(entry.timestamp) : null,
    json: pgText(json),
    text: pgText(text),
  };
}

/**
 * Stores one batch. Entries the archive already holds (a repeated batch) are skipped; a batch that
 * starts past what the archive holds is refused, so no gap can open. A header that is not the
 * session's one header line, or an entry whose id the session already has, refuses the batch whole.
 */
export async function receiveBatch(pool: pg.Pool, principal: Principal, batch: PushBatch): Promise<{ have: number; added: number }> {
  const s = batch.session;
  checkPushedHeader(s.sessionId, s.header);
  const projectId = await projectFor(pool, principal, batch.project);
  const rows = batch.entries.map((json, index) => entryRow(json, batch.from + index));
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO sessions (project_id, session_id, pushed_by, agent, title, cwd, header, started_at, commits)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)
       ON CONFLICT (project_id, pushed_by, session_id) DO UPDATE SET title = EXCLUDED.title, cwd = EXCLUDED.cwd, agent = EXCLUDED.agent, commits = EXCLUDED.commits`,
      [projectId, pgText(s.sessionId), principal.personId, pgText(s.agent), s.title === null ? null : pgText(s.title), pgText(s.cwd), pgText(s.header), s.startedAt, s.commits && s.commits.length > 0 ? pgText(JSON.stringify(s.commits)) : null],
    );
    const session = (
      await client.query<{ id: string; entry_count: number }>("SELECT id, entry_count FROM sessions WHERE project_id = $1 AND pushed_by = $2 AND session_id = $3 FOR UPDATE", [
        projectId,
        principal.personId,
        pgText(s.sessionId),
      ])
    ).rows[0];
    if (!session) throw new Error("the session row vanished inside its transaction");
    if (batch.from > session.entry_count) {
      throw new ArchiveError("bad-request", `the push starts at entry ${batch.from} but the archive holds only ${session.entry_count}; push again from the start`);
    }
    const fresh = rows.filter((row) => row.seq >= session.entry_count);
    await refuseDuplicateIds(client, s.sessionId, session.id, fresh);
    let added = 0;
    if (fresh.length > 0) {
      const result = await client.query(
        `INSERT INTO entries (session_pk, seq, entry_id, parent_id, type, at, entry, search_text)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])`,
        [
          session.id,
          fresh.map((r) => r.seq),
          fresh.map((r) => r.id),
          fresh.map((r) => r.parentId),
          fresh.map((r) => r.type),
          fresh.map((r) => r.at),
          fresh.map((r) => r.json),
          fresh.map((r) => r.text),
        ],
      );
      added = result.rowCount ?? 0;
    }
    const have = Math.max(session.entry_count, batch.from + rows.length);
    await client.query("UPDATE sessions SET entry_count = $2, pushed_at = now() WHERE id = $1", [session.id, have]);
    await client.query("COMMIT");
    return { have, added };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Refuses entries whose ids repeat among themselves or one the session already holds (the archive keeps one entry per id). */
async function refuseDuplicateIds(client: pg.PoolClient, sessionId: string, sessionPk: string, fresh: readonly EntryRow[]): Promise<void> {
  const within = firstDuplicateId(fresh.map((r) => r.id), fresh[0]?.seq ?? 0);
  if (within) throw new ArchiveError("bad-request", duplicateIdRefusal(sessionId, within));
  if (fresh.length === 0) return;
  const held = (
    await client.query<{ entry_id: string; seq: number }>("SELECT entry_id, seq FROM entries WHERE session_pk = $1 AND entry_id = ANY($2::text[]) ORDER BY seq LIMIT 1", [sessionPk, fresh.map((r) => r.id)])
  ).rows[0];
  if (!held) return;
  const again = fresh.find((r) => r.id === held.entry_id) as EntryRow;
  throw new ArchiveError("bad-request", duplicateIdRefusal(sessionId, { id: held.entry_id, first: held.seq, second: again.seq }));
}
