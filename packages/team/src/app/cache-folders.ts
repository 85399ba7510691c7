/**
 * The folders of the page's session copies (session-cache.ts): one per `team serve` process, in the
 * system's temporary folder, named with the process's id. A process removes its own when it closes;
 * one killed (`kill -9`, a crash, the machine's power) cannot, so each process, as it starts,
 * removes the folders of this user whose process is no longer running. A folder of a process that
 * still runs (another `team serve` on the same machine) is left alone.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const PREFIX = "bonsai-archive-cache-";
const OWN = new RegExp(`^${PREFIX}(\\d+)-`, "u");

/** whether a process with this id runs (one of another user counts as running) */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the copy folders left by processes that no longer run; the folders removed. */
export function removeAbandonedCacheFolders(tmp = os.tmpdir()): string[] {
  const removed: string[] = [];
  const uid = process.getuid?.();
  for (const name of fs.readdirSync(tmp)) {
    const pid = Number(OWN.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isSafeInteger(pid) || pid === process.pid || running(pid)) continue;
    const folder = path.join(tmp, name);
    try {
      const stat = fs.lstatSync(folder);
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
      fs.rmSync(folder, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

/** A new private copy folder for this process (after removing those abandoned by dead ones). */
export function makeCacheFolder(tmp = os.tmpdir()): string {
  removeAbandonedCacheFolders(tmp);
  return fs.mkdtempSync(path.join(tmp, `${PREFIX}${process.pid}-`));
}
