/**
 * A small disk for the full-disk scenarios: a tmpfs of a given size, filled to the last byte or to a
 * chosen number of free bytes. Mounting needs root (CI and the build machine run as root); where it
 * is refused the scenarios skip with the reason (`SMALL_DISK_SKIP`).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const mounts: string[] = [];

afterAll(() => {
  for (const dir of [...mounts]) unmountSmallDisk(dir);
});

/** A fresh tmpfs of `size` (e.g. "256k"), or the reason it cannot be mounted here. */
export function mountSmallDisk(size: string): string | { skip: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-small-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
  } catch (err) {
    fs.rmdirSync(dir);
    return { skip: `a tmpfs cannot be mounted here (${(err as Error).message.split("\n")[0]}): needs root` };
  }
  mounts.push(dir);
  return dir;
}

/** A fresh tmpfs of `size`; throws the reason when it cannot be mounted. */
export function smallDisk(size: string): string {
  const disk = mountSmallDisk(size);
  if (typeof disk !== "string") throw new Error(disk.skip);
  return disk;
}

export function unmountSmallDisk(dir: string): void {
  execFileSync("umount", [dir]);
  fs.rmdirSync(dir);
  mounts.splice(mounts.indexOf(dir), 1);
}

const probe = mountSmallDisk("64k");
if (typeof probe === "string") unmountSmallDisk(probe);
/** Why the full-disk scenarios cannot run here ("" when they can). */
export const SMALL_DISK_SKIP = typeof probe === "string" ? "" : probe.skip;

/**
 * Fills the disk holding `dir` (with the file `filler`) until ENOSPC, then gives back about
 * `leaveFree` bytes (tmpfs frees whole pages, so the room left is `leaveFree` rounded to a page).
 */
export function fillDisk(dir: string, leaveFree = 0): void {
  const filler = path.join(dir, "filler");
  const fd = fs.openSync(filler, "w");
  const chunk = Buffer.alloc(4096, 120);
  try {
    for (let size = 4096; ; size = Math.max(1, size >> 1)) {
      try {
        fs.writeSync(fd, chunk, 0, size);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
        if (size === 1) break;
      }
    }
    if (leaveFree > 0) fs.ftruncateSync(fd, Math.max(0, fs.fstatSync(fd).size - leaveFree));
  } finally {
    fs.closeSync(fd);
  }
}

/** Frees what fillDisk took. */
export function emptyDisk(dir: string): void {
  fs.rmSync(path.join(dir, "filler"), { force: true });
}
