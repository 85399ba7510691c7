/**
 * "Download for pi" in a team-archive window: the downloaded pi session goes where pi itself keeps
 * a session of its folder (store's piSessionFile), so that `pi --resume` finds it, never over an
 * existing file. The file's header comes from the archive, so it is untrusted: its id and time
 * must be plain names before they become part of a path. Pure but for the file moves; tested.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { piSessionFile } from "@bonsai/store/paths";

const PLAIN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/u;

/** Where pi keeps the session whose first line is `headerLine`, or why it cannot go there. */
export function piCopyTarget(headerLine: string, env: NodeJS.ProcessEnv, home: string): { file: string } | { error: string } {
  let header: unknown;
  try {
    header = JSON.parse(headerLine);
  } catch {
    return { error: "the download is not a pi session (its first line is not JSON)" };
  }
  const h = header as { type?: unknown; id?: unknown; timestamp?: unknown; cwd?: unknown };
  if (h.type !== "session" || typeof h.id !== "string" || typeof h.timestamp !== "string" || typeof h.cwd !== "string") {
    return { error: "the download is not a pi session (its first line is no session header)" };
  }
  if (!PLAIN.test(h.id) || !PLAIN.test(h.timestamp) || h.cwd.includes("\0")) return { error: "the pi session's header names no usable id, time or folder" };
  return { file: piSessionFile(h.cwd, h.id, h.timestamp, env, home) };
}

/** Moves a downloaded pi session into pi's folder; the path it went to, or the reason it stayed where it was. */
export function movePiDownload(downloaded: string, env: NodeJS.ProcessEnv, home: string): { file: string } | { error: string } {
  const fd = fs.openSync(downloaded, "r");
  let first: string;
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    first = buffer.subarray(0, read).toString("utf8").split("\n")[0] ?? "";
  } finally {
    fs.closeSync(fd);
  }
  const target = piCopyTarget(first, env, home);
  if ("error" in target) return target;
  fs.mkdirSync(path.dirname(target.file), { recursive: true });
  // never over a file pi already has: the copy is new, or it stays in the downloads
  try {
    fs.copyFileSync(downloaded, target.file, fs.constants.COPYFILE_EXCL);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return { error: `pi already has a session at ${target.file}` };
    throw err;
  }
  fs.rmSync(downloaded, { force: true });
  return target;
}
