/**
 * Recovery at open: what killed processes left in the journal, and sessions a past version stored
 * with two rows for one line, are read again from their files so that the store and each file agree.
 */
import fs from "node:fs";
import { StoreError } from "../session-store";
import type { RecoveryReport } from "../source/source-sync";
import { sql, type StoreContext } from "./context";
import { syncFile } from "./sync";

/**
 * Resolves what killed processes left in the journal (called by openStore): each abandoned file
 * operation's temporary files are removed and its session is read again from the file, so the
 * store and the file agree. Safe to call any time; operations of live processes are left alone.
 */
export function recoverSources(ctx: StoreContext): RecoveryReport {
  return ctx.files.recover((intent, whole) => ctx.locks.run(intent.sessionId, () => {
    const row = ctx.sessions.row(intent.sessionId);
    if (!row || row.source_path !== intent.file || row.detached !== null || !fs.existsSync(intent.file)) return;
    const report = syncFile(ctx, intent.file, "follow", { whole });
    if (report.status === "failed") throw new StoreError(report.message);
  }));
}

/**
 * Reads again, whole, each session a past version left with two rows for one line of its file
 * (migration 016 lists them), so that the store and an export hold exactly the file's lines. A
 * session whose file cannot be read now stays listed for the next open.
 */
export function repairDuplicateLines(ctx: StoreContext): number {
  let repaired = 0;
  for (const { session_id: id } of sql(ctx, "SELECT session_id FROM line_repairs").all() as { session_id: string }[]) {
    const row = ctx.sessions.row(id);
    if (row?.source_path && row.detached === null && fs.existsSync(row.source_path)) {
      const report = syncFile(ctx, row.source_path, "follow", { whole: true });
      if (report.status === "failed" || report.status === "not-a-session") continue;
      repaired++;
    } else if (row?.source_path && row.detached === null) {
      continue;
    }
    sql(ctx, "DELETE FROM line_repairs WHERE session_id = ?").run(id);
  }
  return repaired;
}

