/**
 * The page's answer to opening a session, kept in PostgreSQL (migration 003) for the entry count it
 * was made from. A server process that holds no copy of a session answers its open from here at
 * once, and makes its copy behind the answer, instead of making the page wait for the copy (a
 * 100,000-entry session: about 10 s). The answer is the app's own openSession answer, made by a
 * process from its copy; a row for another entry count is never read, so a push that added
 * entries makes the row stale until some process opens the session or takes the push again.
 */
import { withJson, type MethodOutput } from "@bonsai/ipc";
import type pg from "pg";

type OpenAnswer = MethodOutput<"openSession">;

/**
 * A kept answer as the open's value without parsing it: the WebSocket frame takes its text as it is
 * (ipc's withJson), and it is parsed only if something here reads a field (6.3 MB of JSON for a
 * 100,000-entry session: parsing it and making the text again held the server's thread for a few
 * hundred ms on a busy machine).
 */
export function keptAnswerValue(text: string): OpenAnswer {
  let parsed: OpenAnswer | undefined;
  const value = {} as OpenAnswer;
  for (const key of ["session", "skeleton"] as const) {
    Object.defineProperty(value, key, { enumerable: true, get: () => (parsed ??= JSON.parse(text) as OpenAnswer)[key] });
  }
  return withJson(value, text);
}

/** The kept answer (JSON text) of the session row `sessionPk` at exactly `entryCount` entries, or null. */
export async function keptOpenAnswer(pool: pg.Pool, sessionPk: string, entryCount: number): Promise<string | null> {
  const row = (await pool.query<{ answer: string }>("SELECT answer FROM opened_sessions WHERE session_pk = $1 AND entry_count = $2", [sessionPk, entryCount])).rows[0];
  return row?.answer ?? null;
}

/** Whether an answer is kept for the session row `sessionPk` at exactly `entryCount` entries (without reading it). */
export async function isOpenAnswerKept(pool: pg.Pool, sessionPk: string, entryCount: number): Promise<boolean> {
  const row = (await pool.query<{ kept: boolean }>("SELECT EXISTS (SELECT 1 FROM opened_sessions WHERE session_pk = $1 AND entry_count = $2) AS kept", [sessionPk, entryCount])).rows[0];
  return row?.kept === true;
}

/**
 * Keeps `answer` (JSON text) for the session row at `entryCount` entries. An answer for fewer
 * entries than the one kept is dropped (two processes racing after a push: the newer copy wins).
 */
export async function keepOpenAnswer(pool: pg.Pool, sessionPk: string, entryCount: number, answer: string): Promise<void> {
  await pool.query(
    `INSERT INTO opened_sessions (session_pk, entry_count, answer) VALUES ($1, $2, $3)
     ON CONFLICT (session_pk) DO UPDATE SET entry_count = EXCLUDED.entry_count, answer = EXCLUDED.answer, made_at = now()
      WHERE opened_sessions.entry_count < EXCLUDED.entry_count`,
    [sessionPk, entryCount, answer],
  );
}
