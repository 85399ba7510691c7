/**
 * The archive's side of a push. A session is stored under (project, session id); its entries under
 * their position in the session (`seq`). A push asks what the archive holds (`have`: the next
 * position it lacks) and sends entries from there; each batch is one transaction that also moves
 * `have`, so a push interrupted anywhere and repeated stores every entry exactly once.
 */
import { deriveColumns } from "@bonsai/store/derive";
import type { SessionEntry } from "@bonsai/core";
import type pg from "pg";
import { ArchiveError } from "./errors";
import { projectFor, type Principal } from "./people";

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

/** The next position the archive lacks for a session (0 when it has none of it). */
export async function archiveHas(pool: pg.Pool, principal: Principal, project: string, sessionId: string): Promise<number> {
  const projectId = await projectFor(pool, principal, project);
  const row = (await pool.query<{ entry_count: number }>("SELECT entry_count FROM sessions WHERE project_id = $1 AND session_id = $2", [projectId, sessionId])).rows[0];
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
 * starts past what the archive holds is refused, so no gap can open.
 */
export async function receiveBatch(pool: pg.Pool, principal: Principal, batch: PushBatch): Promise<{ have: number; added: number }> {
  const projectId = await projectFor(pool, principal, batch.project);
  const rows = batch.entries.map((json, index) => entryRow(json, batch.from + index));
  const s = batch.session;
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO sessions (project_id, session_id, pushed_by, agent, title, cwd, header, started_at, commits)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)
       ON CONFLICT (project_id, session_id) DO UPDATE SET title = EXCLUDED.title, cwd = EXCLUDED.cwd, agent = EXCLUDED.agent, commits = EXCLUDED.commits`,
      [projectId, pgText(s.sessionId), principal.personId, pgText(s.agent), s.title === null ? null : pgText(s.title), pgText(s.cwd), pgText(s.header), s.startedAt, s.commits && s.commits.length > 0 ? pgText(JSON.stringify(s.commits)) : null],
    );
    const session = (
      await client.query<{ id: string; entry_count: number }>("SELECT id, entry_count FROM sessions WHERE project_id = $1 AND session_id = $2 FOR UPDATE", [
        projectId,
        pgText(s.sessionId),
      ])
    ).rows[0];
    if (!session) throw new Error("the session row vanished inside its transaction");
    if (batch.from > session.entry_count) {
      throw new ArchiveError("bad-request", `the push starts at entry ${batch.from} but the archive holds only ${session.entry_count}; push again from the start`);
    }
    const fresh = rows.filter((row) => row.seq >= session.entry_count);
    let added = 0;
    if (fresh.length > 0) {
      const result = await client.query(
        `INSERT INTO entries (session_pk, seq, entry_id, parent_id, type, at, entry, search_text)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
         ON CONFLICT DO NOTHING`,
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
