/**
 * Taking back an append the disk refused (full, quota, input/output error): the bytes of our line
 * that did reach the file are cut off (ftruncate to the length before them), so the agent's next
 * line starts where a line ends and parses.
 *
 * - Only our own bytes are cut: the file must end with exactly the part of our line that was
 *   written. If anything follows them (the agent appended after our partial line), nothing is cut
 *   and the refusal says so: cutting would take the agent's bytes too.
 * - The journal's append intent is told what is about to be cut ({ takeBack: { from, to } }) before
 *   the cut, so a crash between the failed write and the cut is finished by recovery
 *   (`finishTakeBack`): it cuts when the file still ends at `to` with the same bytes' length.
 */
import fs from "node:fs";
import { readRange } from "./bytes";
import type { FaultHook } from "./faults";
import type { Intent, Journal } from "./journal";
import { asWriteFailure, WriteFailedError } from "./write-failure";

interface TakeBack {
  from: number;
  to: number;
}

/**
 * Writes `data` whole to `out` (O_APPEND) and fsyncs it. When the disk refuses, what reached the
 * file is cut back and a WriteFailedError is thrown ("the disk is full; nothing was written").
 * `fd` reads the same file.
 */
export function writeOrTakeBack(out: number, fd: number, data: Buffer, intentId: number, journal: Journal, fault?: FaultHook): void {
  let done = 0;
  try {
    while (done < data.length) done += fs.writeSync(out, data, done, data.length - done);
    fs.fsyncSync(out);
  } catch (err) {
    const failure = asWriteFailure(err);
    if (!(failure instanceof WriteFailedError)) throw err;
    takeBack(out, fd, data.subarray(0, done), intentId, journal, failure, fault);
    throw failure;
  }
}

function takeBack(out: number, fd: number, ours: Buffer, intentId: number, journal: Journal, failure: WriteFailedError, fault?: FaultHook): void {
  if (ours.length === 0) return endQuietly(journal, intentId);
  const size = fs.fstatSync(fd).size;
  const from = size - ours.length;
  if (from < 0 || !readRange(fd, from, size).equals(ours)) {
    throw new WriteFailedError(`${failure.message.replace(/; nothing was written$/u, "")}; part of Bonsai's line reached the file and the agent wrote after it, so it was left in place (its line is cut and will be skipped)`, failure.code);
  }
  const cut: TakeBack = { from, to: size };
  journal.note(intentId, { takeBack: cut });
  fault?.("append:take-back-noted");
  fs.ftruncateSync(out, from);
  try {
    fs.fsyncSync(out);
  } catch {
    // the cut is in the page cache; a crash before it reaches the disk is finished by recovery
  }
  endQuietly(journal, intentId);
}

/** The intent is done; on a disk too full for SQLite to delete it, the next open's recovery ends it. */
function endQuietly(journal: Journal, intentId: number): void {
  try {
    journal.end(intentId);
  } catch {
    // left for recovery: the file ends where it ended before the append, it finds nothing to cut
  }
}

/**
 * Recovery of an append intent whose write the disk refused: if the file still ends where the
 * refused bytes ended (nothing was appended after them), they are cut off. True when it cut.
 */
export function finishTakeBack(intent: Intent, fault?: FaultHook): boolean {
  const cut = intent.detail.takeBack as Partial<TakeBack> | undefined;
  if (intent.kind !== "append" || typeof cut?.from !== "number" || typeof cut.to !== "number") return false;
  const fd = fs.openSync(intent.file, "r+");
  try {
    if (fs.fstatSync(fd).size !== cut.to) return false;
    fault?.("recovery:take-back");
    fs.ftruncateSync(fd, cut.from);
    fs.fsyncSync(fd);
    return true;
  } finally {
    fs.closeSync(fd);
  }
}
