/**
 * The process's standard output and error written through their file descriptors (fs.writeSync)
 * instead of Node's process.stdout and process.stderr streams, unless they are a terminal.
 *
 * For a pipe, the first use of process.stdout or process.stderr makes a socket stream and loads the
 * network and stream modules behind it: about 10 ms of CPU and 270 page faults in a command whose
 * whole work is 100 ms (docs/PERFORMANCE.md, fourteenth pass). A short command needs one write(2)
 * per piece of output. Node writes files and pipes synchronously on Linux too, so the bytes and
 * their order are the same. A terminal keeps Node's stream, which knows the console's encoding on
 * Windows; telling one apart costs an fstat, and loads Node's tty module only for a character
 * device.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import type * as Tty from "node:tty";

/** Writes text or bytes, whole, to one of the process's standard streams. */
export type Writer = (data: string | Uint8Array) => void;

/** How long a write waits before it tries again on a descriptor that is full (non-blocking). */
const FULL_WAIT_MS = 1;

let sleeper: Int32Array | undefined;
function pause(ms: number): void {
  sleeper ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(sleeper, 0, 0, ms);
}

/**
 * Whether `fd` is a terminal. Only a character device can be one, so anything else (a pipe, a file)
 * is answered by fstat alone, and so is the null device (output thrown away, as a benchmark or a
 * script's `>/dev/null` does); Node's tty module (which loads the network modules) is asked only
 * for another character device.
 */
export function isTerminal(fd: number): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(fd);
  } catch {
    return false;
  }
  if (!stat.isCharacterDevice() || isNullDevice(stat)) return false;
  const tty = createRequire(import.meta.url)("node:tty") as typeof Tty;
  return tty.isatty(fd);
}

let nullDevice: fs.Stats | null | undefined;
function isNullDevice(stat: fs.Stats): boolean {
  if (nullDevice === undefined) {
    try {
      nullDevice = fs.statSync(os.devNull);
    } catch {
      nullDevice = null;
    }
  }
  return nullDevice !== null && nullDevice.isCharacterDevice() && stat.rdev === nullDevice.rdev;
}

/** What writeAll does when the reader is gone (EPIPE). */
export type OnClosed = () => never;

/**
 * Writes `data` whole to `fd`: again after a partial write, and after a short wait while a
 * non-blocking descriptor is full (EAGAIN). `onClosed` when the reader has gone away (EPIPE).
 */
export function writeAll(fd: number, data: string | Uint8Array, onClosed: OnClosed): void {
  let bytes: Uint8Array | undefined = typeof data === "string" ? undefined : data;
  let done = 0;
  for (;;) {
    try {
      if (bytes === undefined) {
        // a string goes as it is: converted only when a write took part of it
        const wrote = fs.writeSync(fd, data as string);
        const length = Buffer.byteLength(data as string);
        if (wrote === length) return;
        bytes = Buffer.from(data as string);
        done = wrote;
        continue;
      }
      if (done >= bytes.length) return;
      done += fs.writeSync(fd, bytes, done, bytes.length - done);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EPIPE") onClosed();
      if (code !== "EAGAIN") throw err;
      pause(FULL_WAIT_MS);
    }
  }
}

/** A closed pipe (`bonsai context f | head`) ends the process quietly: it is not an error worth a message. */
export const exitQuietly: OnClosed = () => process.exit(process.exitCode ?? 0);

/**
 * A writer for the standard output (1) or error (2): Node's stream on a terminal, writes to the
 * descriptor otherwise; which one is decided at the first write.
 */
export function standardWriter(fd: 1 | 2): Writer {
  let write: Writer | undefined;
  return (data) => {
    if (write === undefined) {
      if (isTerminal(fd)) {
        const stream = fd === 1 ? process.stdout : process.stderr;
        stream.on("error", (err: NodeJS.ErrnoException) => {
          if (err.code === "EPIPE") exitQuietly();
          throw err;
        });
        write = (d) => void stream.write(d);
      } else write = (d) => writeAll(fd, d, exitQuietly);
    }
    write(data);
  };
}
