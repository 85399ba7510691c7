/**
 * The desktop app's log file, main.log in the platform's logs folder (app.getPath("logs")): main's
 * messages and the backend process's output go there. When it passes `maxBytes` it is rotated
 * (main.log -> main.1.log -> ... -> main.<keep>.log, the oldest dropped), so it never grows without
 * bound. Writing a log line must never take the app down: a failing write (full disk) is dropped.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export interface LogFile {
  readonly file: string;
  write(text: string): void;
}

export function openLogFile(dir: string, options: { maxBytes?: number; keep?: number } = {}): LogFile {
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const keep = options.keep ?? 3;
  const file = path.join(dir, "main.log");
  const rotated = (n: number) => path.join(dir, `main.${n}.log`);
  let size = 0;
  try {
    fs.mkdirSync(dir, { recursive: true });
    size = fs.statSync(file).size;
  } catch {
    size = 0;
  }
  function rotate(): void {
    fs.rmSync(rotated(keep), { force: true });
    for (let n = keep - 1; n >= 1; n--) if (fs.existsSync(rotated(n))) fs.renameSync(rotated(n), rotated(n + 1));
    if (fs.existsSync(file)) fs.renameSync(file, rotated(1));
    size = 0;
  }
  return {
    file,
    write(text) {
      try {
        if (size > 0 && size + Buffer.byteLength(text) > maxBytes) rotate();
        fs.appendFileSync(file, text);
        size += Buffer.byteLength(text);
      } catch {
        // a log line is not worth failing for (full disk, folder removed)
      }
    },
  };
}

/** One timestamped line for the log. */
export function logLine(source: string, message: string): string {
  return `${new Date().toISOString()} [${source}] ${message.replace(/\s+$/u, "")}\n`;
}
