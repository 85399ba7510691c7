/**
 * The `.bonsai-original` copy of a session file, taken before Bonsai rewrites the file the first
 * time (table source_backups, migration 004). It is written atomically (temporary file, fsync, then
 * linked into place so that it never replaces anything, fsync of the folder), recorded with its size
 * and hash, and checked before every rewrite that relies on it:
 * - recorded and whole: fine;
 * - recorded, broken, and the source never rewritten since: taken again from the source (the
 *   original is still untouched);
 * - recorded, broken, and the source rewritten since: the rewrite is refused (the copy was the only
 *   original; the user decides, by moving it aside);
 * - recorded but deleted by the user: a new copy of the source as it is now is taken;
 * - not recorded (older Bonsai, another tool): kept and recorded if the source starts with exactly
 *   its bytes (taken again whole when it is shorter — a copy cut short by a crash), else refused.
 */
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { readRange, sha256 } from "./bytes";
import { fsyncDir, removeTemp } from "./temp-files";
import { BackupRefusal } from "../session-store";

export const BACKUP_SUFFIX = ".bonsai-original";

export function backupPathOf(file: string): string {
  return `${file}${BACKUP_SUFFIX}`;
}

export interface BackupRecord {
  sourcePath: string;
  backupPath: string;
  size: number;
  sha256: string;
  rewritten: boolean;
}

export type BackupPlan =
  /** nothing to write */
  | { kind: "keep" }
  /** no backup yet: link a new one into place */
  | { kind: "create"; reason: string }
  /** an existing copy of ours, or a shorter copy: replace it (rename over it) */
  | { kind: "replace"; reason: string }
  /** an unrecorded copy that is exactly the source: record it as it is */
  | { kind: "adopt"; size: number; sha256: string };

interface BackupRow {
  source_path: string;
  backup_path: string;
  size: number;
  sha256: string;
  rewritten: number;
}

function hashFile(file: string, size: number): string | null {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, "r");
    return sha256(readRange(fd, 0, size));
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export class Backups {
  constructor(private readonly db: Database.Database) {}

  record(file: string): BackupRecord | undefined {
    const r = this.db.prepare("SELECT * FROM source_backups WHERE source_path = ?").get(file) as BackupRow | undefined;
    return r ? { sourcePath: r.source_path, backupPath: r.backup_path, size: r.size, sha256: r.sha256, rewritten: r.rewritten === 1 } : undefined;
  }

  /** What must happen to the backup before `file`, whose bytes are `current`, is rewritten. */
  plan(file: string, current: Buffer): BackupPlan {
    const backup = backupPathOf(file);
    const rec = this.record(file);
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(backup);
    } catch {
      st = undefined;
    }
    if (rec) {
      if (!st) return { kind: "create", reason: `the backup ${backup} was removed: a new copy of the session file is taken` };
      if (st.size === rec.size && hashFile(backup, rec.size) === rec.sha256) return { kind: "keep" };
      if (!rec.rewritten) return { kind: "replace", reason: `the backup ${backup} was damaged; it is taken again from the untouched session file` };
      throw new BackupRefusal(
        `the backup ${backup} of the agent's original file is damaged (its size or content changed) and the session file has been rewritten since, so it cannot be taken again; move it aside to let Bonsai take a new copy, then try again`,
      );
    }
    if (!st) return { kind: "create", reason: "first rewrite of this file" };
    if (!st.isFile()) throw new BackupRefusal(`${backup} exists and is not a file; move it aside and try again`);
    let fd: number | undefined;
    let existing: Buffer;
    try {
      fd = fs.openSync(backup, "r");
      existing = readRange(fd, 0, st.size);
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
    if (existing.length <= current.length && current.subarray(0, existing.length).equals(existing)) {
      if (existing.length === current.length) return { kind: "adopt", size: existing.length, sha256: sha256(existing) };
      return { kind: "replace", reason: `the backup ${backup} is a shorter copy of the session file (cut short); it is taken again whole` };
    }
    throw new BackupRefusal(
      `${backup} exists but is not a copy of this session file (left by an older Bonsai or another tool), so Bonsai cannot rely on it; move it aside and try again`,
    );
  }

  /**
   * Puts a finished temporary copy (`tmp`, fsynced, `size` bytes with hash `hash`) into place as the
   * backup of `file` and records it. "create" links it (never replaces a file that appeared
   * meanwhile), "replace" renames it over the broken copy.
   */
  install(file: string, plan: BackupPlan, tmp: string | null, size: number, hash: string): void {
    const backup = backupPathOf(file);
    if (plan.kind === "create" || plan.kind === "replace") {
      if (tmp === null) throw new Error("no temporary copy to install");
      if (plan.kind === "create") {
        try {
          fs.linkSync(tmp, backup);
        } catch (err) {
          if ((err as { code?: string }).code === "EEXIST") {
            throw new BackupRefusal(`${backup} appeared while Bonsai was taking its own copy; try again`);
          }
          throw err;
        } finally {
          removeTemp(tmp);
        }
      } else {
        fs.renameSync(tmp, backup);
      }
      fsyncDir(path.dirname(backup));
      const st = fs.statSync(backup);
      if (st.size !== size) throw new Error(`the backup ${backup} has ${st.size} bytes after writing ${size}`);
    }
    this.db
      .prepare(
        `INSERT INTO source_backups (source_path, backup_path, size, sha256, created_at, rewritten) VALUES (?, ?, ?, ?, ?, 0)
         ON CONFLICT (source_path) DO UPDATE SET backup_path = excluded.backup_path, size = excluded.size, sha256 = excluded.sha256, created_at = excluded.created_at, rewritten = 0`,
      )
      .run(file, backup, size, hash, new Date().toISOString());
  }

  /** The source was rewritten: from now on the backup is the only copy of the agent's original. */
  markRewritten(file: string): void {
    this.db.prepare("UPDATE source_backups SET rewritten = 1 WHERE source_path = ?").run(file);
  }

  /** Recovery: a backup linked into place before its record was written (crash between the two). */
  adoptIfWhole(file: string, size: number, hash: string): boolean {
    if (this.record(file)) return false;
    const backup = backupPathOf(file);
    try {
      if (fs.statSync(backup).size !== size || hashFile(backup, size) !== hash) return false;
    } catch {
      return false;
    }
    this.install(file, { kind: "adopt", size, sha256: hash }, null, size, hash);
    return true;
  }
}
