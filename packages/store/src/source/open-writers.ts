/**
 * Which other processes hold a file open for writing (Linux: /proc/<pid>/fd and fdinfo; elsewhere
 * nothing can be seen and the list is empty). A writer that keeps the file open goes on writing to
 * the old inode after a rename: a rewrite would cut its later lines off, so Bonsai refuses it.
 * Agents that open, append and close for every line (pi) are between lines almost always.
 */
import fs from "node:fs";
import path from "node:path";

export interface OpenWriter {
  pid: number;
  command: string;
}

const O_ACCMODE = 0o3;

function writableFlags(fdinfo: string): boolean {
  const m = /^flags:\s*([0-7]+)/m.exec(fdinfo);
  if (!m) return false;
  const mode = Number.parseInt(m[1] as string, 8) & O_ACCMODE;
  return mode === 1 || mode === 2; // O_WRONLY, O_RDWR
}

function commandOf(pid: string): string {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "?";
  }
}

/** Other processes with `file` (by device and inode) open for writing; [] where /proc is absent. */
export function openWritersOf(file: string): OpenWriter[] {
  if (process.platform !== "linux") return [];
  let target: fs.Stats;
  let pids: string[];
  try {
    target = fs.statSync(file);
    pids = fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
  } catch {
    return [];
  }
  const found: OpenWriter[] = [];
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or another user's process (it cannot write our user's files anyway, mostly)
    }
    for (const fd of fds) {
      try {
        const st = fs.statSync(path.join("/proc", pid, "fd", fd));
        if (st.ino !== target.ino || st.dev !== target.dev) continue;
        if (!writableFlags(fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8"))) continue;
        found.push({ pid: Number(pid), command: commandOf(pid) });
        break;
      } catch {
        // closed meanwhile
      }
    }
  }
  return found;
}
