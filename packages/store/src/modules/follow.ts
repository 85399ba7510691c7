/** Live follow: followed files read again when they change, and new session files in watched folders imported. */
import fs from "node:fs";
import { scanPaths } from "../scan";
import type { Follower, FollowOptions } from "../session-store";
import { startFollower } from "../source/follow";
import { errorMessage, sql, type StoreContext } from "./context";
import { sessionBySource } from "./sessions";
import { syncFile } from "./sync";

export function follow(ctx: StoreContext, options: FollowOptions = {}): Follower {
  const rows = sql(ctx, "SELECT id, source_path FROM sessions WHERE source_path IS NOT NULL AND detached IS NULL").all() as { id: string; source_path: string }[];
  const wanted = options.sessionIds ? new Set(options.sessionIds) : null;
  const targets = rows.filter((r) => !wanted || wanted.has(r.id)).map((r) => ({ sessionId: r.id, file: r.source_path }));
  const follower = startFollower(targets, {
    pollIntervalMs: options.pollIntervalMs ?? 500,
    sync: (t) => {
      if (ctx.state.closed) return;
      if (options.sync) options.sync(t);
      else followFile(ctx, t);
    },
    onClose: () => {
      ctx.state.followers.delete(follower);
      stopAdding();
    },
  });
  // without a fixed list, sessions imported later are followed too
  const stopAdding = wanted
    ? () => undefined
    : ctx.events.on("session-updated", (e) => {
        if (e.reason !== "imported") return;
        const file = ctx.sessions.row(e.sessionId)?.source_path;
        if (file) follower.add({ sessionId: e.sessionId, file });
      });
  const stopScanning = options.folders && options.folders.length > 0 ? watchFolders(ctx, options.folders, options.folderScanMs ?? 2000) : () => undefined;
  const close = follower.close.bind(follower);
  follower.close = () => {
    stopScanning();
    close();
  };
  ctx.state.followers.add(follower);
  return follower;
}

/** Reads what changed in a followed file (what follow() does when it sees a change); failures become follow-error events. */
export function followFile(ctx: StoreContext, target: { sessionId: string; file: string }): void {
  if (ctx.state.closed) return;
  try {
    const report = syncFile(ctx, target.file, "follow");
    if (report.status === "failed") ctx.events.emit("follow-error", { sessionId: target.sessionId, message: report.message });
  } catch (err) {
    ctx.events.emit("follow-error", { sessionId: target.sessionId, message: errorMessage(err) });
  }
}

/** Imports session files that appear in `folders` (new paths, or known non-sessions that changed). */
function watchFolders(ctx: StoreContext, folders: readonly string[], everyMs: number): () => void {
  const skipped = new Map<string, string>(); // not a session: path -> size:mtime when last read
  const scan = (): void => {
    if (ctx.state.closed) return;
    for (const f of scanPaths(folders.filter((d) => fs.existsSync(d))).files) {
      if (sessionBySource(ctx, f.path)) continue; // followed already
      let key: string;
      try {
        const st = fs.statSync(f.path);
        key = `${st.size}:${st.mtimeMs}`;
      } catch {
        continue;
      }
      if (skipped.get(f.path) === key) continue;
      const report = syncFile(ctx, f.path, "import");
      if (report.status === "not-a-session" || report.status === "failed") skipped.set(f.path, key);
    }
  };
  const timer = setInterval(scan, everyMs);
  timer.unref();
  setImmediate(scan);
  return () => clearInterval(timer);
}

