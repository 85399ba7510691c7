/**
 * The tickets of the page's one-time downloads, kept in PostgreSQL so that any `team serve` process
 * answers a download another one prepared (migration 006: open_answer_downloads for a long
 * session's kept answer, export_downloads for an export). A ticket is stored under the SHA-256 of
 * its id, never the id itself (the id is the download's capability), with the time it expires; each
 * new ticket drops its table's expired ones.
 */
import { createHash } from "node:crypto";
import type pg from "pg";

export type TicketTable = "open_answer_downloads" | "export_downloads";

/** how a ticket's id is stored and looked up */
export const ticketHash = (id: string): Buffer => createHash("sha256").update(id).digest();

/** Keeps the ticket `id` in `table` with its other columns (`columns`: name -> value), good for `ms` milliseconds. */
export async function keepTicket(pool: pg.Pool, table: TicketTable, id: string, columns: Readonly<Record<string, unknown>>, ms: number): Promise<void> {
  const names = Object.keys(columns);
  const values = Object.values(columns);
  const placeholders = names.map((_, i) => `$${i + 2}`);
  await pool.query(
    `WITH expired AS (DELETE FROM ${table} WHERE expires_at < now())
     INSERT INTO ${table} (id_hash, ${names.join(", ")}, expires_at)
     VALUES ($1, ${placeholders.join(", ")}, now() + $${names.length + 2}::float8 * interval '1 millisecond')`,
    [ticketHash(id), ...values, ms],
  );
}
