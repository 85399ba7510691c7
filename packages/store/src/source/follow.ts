/**
 * Live follow: watches the folders of source files (fs.watch on the folder survives the
 * temp-file + rename rewrites agents do) and polls their size and mtime as a fallback (network
 * folders, platforms where fs.watch misses events). Each change calls `sync` for the file; the
 * store decides what changed.
 */
import fs from "node:fs";
import path from "node:path";
import type { Follower } from "../session-store";

export interface FollowTarget {
  sessionId: string;
  file: string;
}

export interface FollowerOptions {
  pollIntervalMs: number;
  sync: (target: FollowTarget) => void;
  onClose: () => void;
}

/** delay that merges bursts of watch events into one sync */
const DEBOUNCE_MS = 40;

/** A Follower that can take more files after it started (sessions imported later). */
export interface GrowingFollower extends Follower {
  add(target: FollowTarget): void;
}

export function startFollower(initial: readonly FollowTarget[], options: FollowerOptions): GrowingFollower {
  const targets: FollowTarget[] = [];
  const byDir = new Map<string, Map<string, FollowTarget>>();
  const watchers: fs.FSWatcher[] = [];
  const timers = new Map<string, NodeJS.Timeout>();
  const lastSeen = new Map<string, string>();
  let closed = false;

  const statKey = (file: string): string => {
    try {
      const st = fs.statSync(file);
      return `${st.size}:${st.mtimeMs}:${st.ino}`;
    } catch {
      return "missing";
    }
  };
  const run = (t: FollowTarget): void => {
    if (closed) return;
    lastSeen.set(t.file, statKey(t.file));
    options.sync(t);
  };
  const schedule = (t: FollowTarget): void => {
    if (closed || timers.has(t.file)) return;
    timers.set(
      t.file,
      setTimeout(() => {
        timers.delete(t.file);
        run(t);
      }, DEBOUNCE_MS),
    );
  };

  const watchDir = (dir: string, files: Map<string, FollowTarget>): void => {
    try {
      const w = fs.watch(dir, { persistent: false }, (_event, name) => {
        if (name === null) {
          for (const t of files.values()) schedule(t);
          return;
        }
        const t = files.get(name.toString());
        if (t) schedule(t);
      });
      w.on("error", () => {
        // the poller keeps following this folder
      });
      watchers.push(w);
    } catch {
      // fs.watch unavailable: polling only
    }
  };
  const add = (t: FollowTarget): void => {
    if (closed || targets.some((x) => x.file === t.file)) return;
    targets.push(t);
    lastSeen.set(t.file, statKey(t.file));
    const dir = path.dirname(t.file);
    let files = byDir.get(dir);
    if (!files) {
      byDir.set(dir, (files = new Map()));
      watchDir(dir, files);
    }
    files.set(path.basename(t.file), t);
  };
  for (const t of initial) add(t);
  const poller = setInterval(() => {
    for (const t of targets) {
      if (statKey(t.file) !== lastSeen.get(t.file)) schedule(t);
    }
  }, options.pollIntervalMs);
  poller.unref();

  return {
    get sessionIds(): readonly string[] {
      return targets.map((t) => t.sessionId);
    },
    add,
    close(): void {
      if (closed) return;
      closed = true;
      clearInterval(poller);
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      for (const w of watchers) w.close();
      options.onClose();
    },
  };
}
