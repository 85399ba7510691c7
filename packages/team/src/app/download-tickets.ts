/**
 * The tickets of the page's one-time downloads, kept in PostgreSQL so that any `team serve` process
 * answers a download another one prepared (migration 006: open_answer_downloads for a long
 * session's kept answer, export_downloads for an export). A ticket is stored under the SHA-256 of
 * its id together with the id of the token that asked for it, never the id itself: the download is
 * found only by a request signed in with that very token (checked, so a revoked one finds nothing),
 * and its address alone is not enough. Each ticket keeps the time it expires; each new ticket drops
 * its table's expired ones.
 */
import { createHash } from "node:crypto";
import type pg from "pg";

export type TicketTable = "open_answer_downloads" | "export_downloads";

/** how the ticket `id` asked for with the token `tokenId` is stored and looked up */
export const ticketHash = (id: string, tokenId: string): Buffer => createHash("sha256").update(`${tokenId}\n${id}`).digest();

/** Keeps the ticket `id` for the token `tokenId` in `table` with its other columns (`columns`: name -> value), good for `ms` milliseconds. */
export async function keepTicket(pool: pg.Pool, table: TicketTable, id: string, tokenId: string, columns: Readonly<Record<string, unknown>>, ms: number): Promise<void> {
  const names = Object.keys(columns);
  const values = Object.values(columns);
  const placeholders = names.map((_, i) => `$${i + 2}`);
  await pool.query(
    `WITH expired AS (DELETE FROM ${table} WHERE expires_at < now())
     INSERT INTO ${table} (id_hash, ${names.join(", ")}, expires_at)
     VALUES ($1, ${placeholders.join(", ")}, now() + $${names.length + 2}::float8 * interval '1 millisecond')`,
    [ticketHash(id, tokenId), ...values, ms],
  );
}
