/**
 * The page's answer to opening a session, kept in PostgreSQL (opened_sessions: migrations 003 and
 * 006) for the entry count it was made from, as the gzip of its JSON. A server process answers a
 * long session's open from here at once, whether or not it holds a copy: the page downloads the
 * bytes as they are (answer-downloads.ts), and a process without a copy makes it behind the answer
 * instead of making the page wait for it (a 100,000-entry session: about 10 s). The answer is the
 * app's own openSession answer, made by a process from its copy; a row for another entry count is
 * never read, so a push that added entries makes the row stale until some process opens the
 * session or takes the push again.
 */
import { promisify } from "node:util";
import * as zlib from "node:zlib";
import { frameBytes } from "@bonsai/backend/server";
import { withGzipJson, type MethodOutput } from "@bonsai/ipc";
import type pg from "pg";
import type { KeptAnswerSource } from "./answer-downloads";

type OpenAnswer = MethodOutput<"openSession">;

const gzip = promisify(zlib.gzip);

/** the length of the JSON a gzip holds (its trailer's ISIZE: the length modulo 2^32, and a kept answer is far below that) */
const gzippedLength = (gzipped: Buffer): number => (gzipped.length >= 18 ? gzipped.readUInt32LE(gzipped.length - 4) : 0);

/**
 * A kept answer as the open's value without decompressing or parsing it: the page downloads it from
 * where it is kept (`source`, answer-downloads.ts) as it is; it is decompressed only when it
 * travels in a frame, and parsed only if something here reads a field (6.3 MB of JSON for a
 * 100,000-entry session).
 */
export function keptAnswerValue(gzipped: Buffer, source: KeptAnswerSource): OpenAnswer {
  let text: string | undefined;
  let parsed: OpenAnswer | undefined;
  const json = (): string => (text ??= zlib.gunzipSync(gzipped).toString("utf8"));
  const value = {} as OpenAnswer;
  for (const key of ["session", "skeleton"] as const) {
    Object.defineProperty(value, key, { enumerable: true, get: () => (parsed ??= JSON.parse(json()) as OpenAnswer)[key] });
  }
  return withGzipJson(value, { gzip: gzipped, chars: gzippedLength(gzipped), text: json, source });
}

/** The kept answer's JSON, parsed. */
export function parseKeptAnswer(gzipped: Buffer): OpenAnswer {
  return JSON.parse(zlib.gunzipSync(gzipped).toString("utf8")) as OpenAnswer;
}

/**
 * The session id a kept answer names (its first field: `{"session":{"id":…`), from the first bytes
 * decompressed only; undefined when it does not begin so.
 */
export function keptAnswerSessionId(gzipped: Buffer): string | undefined {
  let head: string;
  try {
    head = zlib.gunzipSync(gzipped.subarray(0, 1024), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString("utf8");
  } catch {
    return undefined;
  }
  const literal = /^\{"session":\{"id":("(?:[^"\\]|\\.)*")/u.exec(head)?.[1];
  if (literal === undefined) return undefined;
  const id: unknown = JSON.parse(literal);
  return typeof id === "string" ? id : undefined;
}

/** The kept answer (gzip of its JSON) of the session row `sessionPk` at exactly `entryCount` entries, or null. */
export async function keptOpenAnswer(pool: pg.Pool, sessionPk: string, entryCount: number): Promise<Buffer | null> {
  const row = (await pool.query<{ answer_gzip: Buffer }>("SELECT answer_gzip FROM opened_sessions WHERE session_pk = $1 AND entry_count = $2", [sessionPk, entryCount])).rows[0];
  return row?.answer_gzip ?? null;
}

/** Whether an answer is kept for the session row `sessionPk` at exactly `entryCount` entries (without reading it). */
export async function isOpenAnswerKept(pool: pg.Pool, sessionPk: string, entryCount: number): Promise<boolean> {
  const row = (await pool.query<{ kept: boolean }>("SELECT EXISTS (SELECT 1 FROM opened_sessions WHERE session_pk = $1 AND entry_count = $2) AS kept", [sessionPk, entryCount])).rows[0];
  return row?.kept === true;
}

/**
 * Keeps `answer` (JSON text, made ASCII as frames are, then gzipped) for the session row at
 * `entryCount` entries. An answer for fewer entries than the one kept is dropped (two processes
 * racing after a push: the newer copy wins).
 */
export async function keepOpenAnswer(pool: pg.Pool, sessionPk: string, entryCount: number, answer: string): Promise<void> {
  const gzipped = await gzip(frameBytes(answer));
  await pool.query(
    `INSERT INTO opened_sessions (session_pk, entry_count, answer_gzip) VALUES ($1, $2, $3)
     ON CONFLICT (session_pk) DO UPDATE SET entry_count = EXCLUDED.entry_count, answer_gzip = EXCLUDED.answer_gzip, made_at = now()
      WHERE opened_sessions.entry_count < EXCLUDED.entry_count`,
    [sessionPk, entryCount, gzipped],
  );
}
