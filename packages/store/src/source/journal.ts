/**
 * The journal of file operations on agents' session files (table source_intents, migration 004).
 *
 * An intent is written in the same transaction as the store change it belongs to ("rewrite this
 * file to content with this hash", "append these entry ids"), before any byte of the file or of a
 * temporary file is written, and names every temporary file the operation may create. It is
 * cleared when the file operation is done. An intent still there when a store opens belongs to a
 * process that died (or is still working: its pid is alive, then it is left alone); recovery
 * (source-sync.ts) makes the store and the file agree again and removes the temporary files.
 */
import fs from "node:fs";
import type Database from "better-sqlite3";

export type IntentKind = "rewrite" | "append";

export interface Intent {
  id: number;
  sessionId: string;
  file: string;
  kind: IntentKind;
  /** temporary files the operation may have created (removed by recovery) */
  tempPaths: string[];
  /** what recovery needs to decide: hashes, sizes, entry ids */
  detail: Record<string, unknown>;
  pid: number;
  processStart: string | null;
  createdAt: string;
}

interface IntentRow {
  id: number;
  session_id: string;
  file: string;
  kind: IntentKind;
  temp_paths: string;
  detail: string;
  pid: number;
  process_start: string | null;
  created_at: string;
}

/** Start time of a process (Linux: field 22 of /proc/<pid>/stat), to tell a reused pid from the writer. */
export function processStartOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null; // field 22 overall: the 20th after "pid (comm)"
  } catch {
    return null;
  }
}

export const SELF_START = processStartOf(process.pid);

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === "EPERM";
  }
}

export class Journal {
  constructor(private readonly db: Database.Database) {}

  /** Records an intent; call inside the transaction of the store change it belongs to. */
  begin(intent: { sessionId: string; file: string; kind: IntentKind; tempPaths: string[]; detail: Record<string, unknown> }): number {
    const info = this.db
      .prepare("INSERT INTO source_intents (session_id, file, kind, temp_paths, detail, pid, process_start, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .run(intent.sessionId, intent.file, intent.kind, JSON.stringify(intent.tempPaths), JSON.stringify(intent.detail), process.pid, SELF_START, new Date().toISOString());
    return Number(info.lastInsertRowid);
  }

  /** Adds facts to an intent's detail (e.g. the hash of a backup about to be put in place). */
  note(id: number, detail: Record<string, unknown>): void {
    const row = this.db.prepare("SELECT detail FROM source_intents WHERE id = ?").pluck().get(id) as string | undefined;
    if (row === undefined) return;
    this.db.prepare("UPDATE source_intents SET detail = ? WHERE id = ?").run(JSON.stringify({ ...(JSON.parse(row) as object), ...detail }), id);
  }

  end(id: number): void {
    this.db.prepare("DELETE FROM source_intents WHERE id = ?").run(id);
  }

  pending(): Intent[] {
    const rows = this.db.prepare("SELECT * FROM source_intents ORDER BY id").all() as IntentRow[];
    return rows.map((r) => ({
      id: r.id,
      sessionId: r.session_id,
      file: r.file,
      kind: r.kind,
      tempPaths: JSON.parse(r.temp_paths) as string[],
      detail: JSON.parse(r.detail) as Record<string, unknown>,
      pid: r.pid,
      processStart: r.process_start,
      createdAt: r.created_at,
    }));
  }

  /**
   * True when the process that wrote the intent is gone (or is this process: its operations are
   * synchronous, so an intent of ours found at open time was abandoned).
   */
  isAbandoned(intent: Intent): boolean {
    if (intent.pid === process.pid) return true;
    if (!isAlive(intent.pid)) return true;
    const start = processStartOf(intent.pid);
    return intent.processStart !== null && start !== null && start !== intent.processStart;
  }
}
