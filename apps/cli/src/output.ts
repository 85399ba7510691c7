/**
 * Where commands write. Commands never touch process.stdout directly, so tests and other hosts can
 * capture the output.
 */
import { IdList, textOf, type JsonText } from "@bonsai/core/id-list";

export interface Io {
  /** text, or UTF-8 bytes (a store's id list, read as bytes, is written as it is) */
  stdout(text: string | Uint8Array): void;
  stderr(text: string): void;
  /** whether the error output is a terminal (progress is shown only there); false when absent */
  stderrIsTerminal?(): boolean;
}

/** A closed pipe (`bonsai context f | head`) ends the process quietly: it is not an error worth a message. */
function endQuietlyOnClosedPipe(err: NodeJS.ErrnoException): void {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
}

/** a writer to one of the process's streams, which ends the process quietly once its reader is gone */
function writerTo(stream: () => NodeJS.WriteStream): (data: string | Uint8Array) => void {
  let watched = false;
  return (data) => {
    const s = stream();
    if (!watched) {
      s.on("error", endQuietlyOnClosedPipe);
      watched = true;
    }
    s.write(data);
  };
}

/** The process's standard output and error, through Node's streams. */
export const processIo: Io = {
  stdout: writerTo(() => process.stdout),
  stderr: writerTo(() => process.stderr),
  stderrIsTerminal: () => process.stderr.isTTY === true,
};

/**
 * Pretty JSON (2-space indent) followed by a newline, written in the parts prettyJsonParts gives: a
 * long id list the store read as one text is written as it is, not copied into the whole first.
 */
export function printJson(io: Io, value: unknown): void {
  const parts = prettyJsonParts(value);
  parts.push("\n");
  for (const part of parts) io.stdout(part);
}

/**
 * JSON.stringify(value, null, 2), the same text; the id lists (IdList) of a plain object's fields
 * are laid out from the text the store read them as (tens of thousands of ids: no string per id).
 */
export function prettyJson(value: unknown): string {
  return prettyJsonParts(value).map(textOf).join("");
}

/** the length up to which a part of prettyJsonParts is joined to the text around it */
const SMALL_PART = 4096;

/** prettyJson in parts, whose concatenation it is (each id list read as one text stays a part of its own) */
function prettyJsonParts(value: unknown): JsonText[] {
  if (!isPlainObject(value) || !Object.values(value).some((v) => v instanceof IdList)) return [JSON.stringify(value, null, 2)];
  const parts: JsonText[] = [];
  let text = "{\n";
  let first = true;
  for (const [key, field] of Object.entries(value)) {
    // a nested value prints as on its own, each of its lines one level deeper (undefined: left out)
    const fieldParts = field instanceof IdList ? field.prettyJsonParts("  ") : [(JSON.stringify(field, null, 2) as string | undefined)?.replaceAll("\n", "\n  ")];
    if (fieldParts[0] === undefined) continue;
    text += `${first ? "" : ",\n"}  ${JSON.stringify(key)}: ${textOf(fieldParts[0])}`;
    first = false;
    for (const part of fieldParts.slice(1)) {
      if (typeof part === "string" && part.length < SMALL_PART) text += part;
      else {
        // a long one is a write of its own, as it is
        parts.push(text, part as JsonText);
        text = "";
      }
    }
  }
  parts.push(first ? "{}" : `${text}\n}`);
  return parts.filter((part) => part.length > 0);
}

/** an object JSON.stringify prints field by field (no toJSON of its own) */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype && !("toJSON" in value);
}

/** One warning line on stderr. */
export function warn(io: Io, message: string): void {
  io.stderr(`bonsai: warning: ${message}\n`);
}

/** Pads or cuts `text` to exactly `width` characters (for aligned text tables). */
export function column(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text.padEnd(width);
}

/** Search hits as `--json` or as lines: session and entry ids whole (what the other commands take), padded to line up. */
export function printSearchHits(io: Io, query: string, hits: readonly { sessionId: string; entryId: string; role: string | null; type: string; snippet: string }[], json: boolean): void {
  if (json) {
    printJson(io, hits);
    return;
  }
  if (hits.length === 0) {
    io.stdout(`no matches for ${JSON.stringify(query)}\n`);
    return;
  }
  const sw = Math.max(...hits.map((h) => h.sessionId.length));
  const ew = Math.max(...hits.map((h) => h.entryId.length));
  for (const h of hits) io.stdout(`${h.sessionId.padEnd(sw)}  ${h.entryId.padEnd(ew)}  ${column(h.role ?? h.type, 12)} ${h.snippet}\n`);
}
