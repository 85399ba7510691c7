/**
 * Where commands write. Commands never touch process.stdout directly, so tests and other hosts can
 * capture the output.
 */

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIo: Io = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** Pretty JSON (2-space indent) followed by a newline. */
export function printJson(io: Io, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** One warning line on stderr. */
export function warn(io: Io, message: string): void {
  io.stderr(`bonsai: warning: ${message}\n`);
}

/** Pads or cuts `text` to exactly `width` characters (for aligned text tables). */
export function column(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text.padEnd(width);
}
