/**
 * Parts of ArchiveStore (archive-store.ts), the one read path of the archive, imported by nothing
 * else: a resolved session as JSONL (the same text `bonsai export --format jsonl` gives, so every
 * local read command answers on it). Search is archive-search.ts.
 */
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { copyBinaryLines } from "./copy-lines";
import type { PushedCommit } from "./receive";
import { ArchiveError } from "./errors";

export interface ArchivedSession {
  /** "project/person/id" (archive-identity.ts): how every read names it */
  key: string;
  id: string;
  project: string;
  pushedBy: string;
  agent: string;
  title: string | null;
  cwd: string;
  startedAt: string | null;
  pushedAt: string;
  entryCount: number;
  /** the commits it produced (pushed with a session imported from a checkpoint branch) */
  commits: PushedCommit[];
  /** its position in the list: `after` this gives the sessions that follow it */
  cursor: string;
}

/**
 * The JSONL of a session ArchiveStore resolved (archive-resolver.ts): its header line, then its
 * entries in order. The entries are read by one `COPY … TO STDOUT (FORMAT binary)`, which sees one
 * snapshot (a push appending meanwhile is not half seen) and hands over each entry's bytes as
 * stored, passed on without being decoded and encoded again, and without one string of the whole
 * session. A connection is taken only once the chunks are iterated, and given back when they end
 * or are abandoned.
 */
export async function* sessionJsonlChunks(pool: pg.Pool, session: { pk: string; header: string }): AsyncGenerator<Buffer, void, undefined> {
  yield Buffer.from(`${session.header}\n`);
  yield* entryChunksFrom(pool, session.pk, 0);
}

/** The entries of the archive's row `sessionPk` at positions `fromSeq` and after, as JSONL lines (one COPY, as sessionJsonlChunks). */
export async function* entryChunksFrom(pool: pg.Pool, sessionPk: string, fromSeq: number): AsyncGenerator<Buffer, void, undefined> {
  // COPY takes no parameters: the key is the archive's own bigint and the position an integer, both checked
  if (!/^\d+$/.test(sessionPk) || !Number.isSafeInteger(fromSeq) || fromSeq < 0) throw new ArchiveError("bad-request", `not a session key and position: ${sessionPk} ${fromSeq}`);
  const client = await pool.connect();
  let finished = false;
  try {
    const rows = client.query(copyTo(`COPY (SELECT entry FROM entries WHERE session_pk = ${sessionPk} AND seq >= ${fromSeq} ORDER BY seq) TO STDOUT (FORMAT binary)`));
    yield* copyBinaryLines(rows);
    finished = true;
  } finally {
    // failed, or abandoned by a reader that went away: the connection is closed, not reused mid-COPY
    client.release(finished ? undefined : true);
  }
}

