/**
 * A session as long as the benchmark asks for, made of real pi entries: the six recorded pi v3
 * sessions of ../shared/fixtures/real/pi, their entries (headers left out) taken in turn, again and
 * again, each copy under fresh random-looking ids (8 hex digits, as pi writes them) and hanging off
 * the previous copy's last entry. The entries keep their real sizes, types and contents (tool
 * outputs, thinking, compactions written by an extension, custom messages, a real abandoned branch),
 * which the generator's entries only imitate; the references between them (parentId,
 * firstKeptEntryId, fromId, targetId) follow the new ids.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { relinkEntry } from "@bonsai/testkit";

export const REAL_PI_DIR = path.resolve(import.meta.dirname, "../../../../shared/fixtures/real/pi");

/** The entries (parsed, without the header) of each real pi file, in name order; undefined when the folder is absent. */
export function realPiEntries(dir = REAL_PI_DIR): Record<string, unknown>[][] | undefined {
  if (!fs.existsSync(dir)) return undefined;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
  if (files.length === 0) return undefined;
  return files.map((f) =>
    fs
      .readFileSync(path.join(dir, f), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((e) => e.type !== "session"),
  );
}

/** 8 hex digits from a counter (a 32-bit mix of it), distinct for distinct counters */
function hexId(n: number): string {
  let x = (n + 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  return x.toString(16).padStart(8, "0");
}

/**
 * The JSONL text of a pi v3 session of `entries` entries (plus its header) from the real files'
 * entries, or undefined when ../shared/fixtures/real/pi is absent.
 */
export function realPiSession(entries: number, sessionId: string, dir = REAL_PI_DIR): string | undefined {
  const sources = realPiEntries(dir);
  if (sources === undefined) return undefined;
  const lines = [JSON.stringify({ type: "session", version: 3, id: sessionId, timestamp: "2026-08-01T00:00:00.000Z", cwd: "/work/real-pi" })];
  let counter = 0;
  let previousLast: string | null = null;
  for (let copy = 0; lines.length - 1 < entries; copy++) {
    const source = sources[copy % sources.length] as Record<string, unknown>[];
    const ids = new Map<string, string>();
    for (const e of source) if (typeof e.id === "string") ids.set(e.id, hexId(counter++));
    for (const e of source) {
      if (lines.length - 1 >= entries) break;
      // a reference to an entry outside the file keeps its id
      lines.push(JSON.stringify(relinkEntry(e, (id) => ids.get(id) ?? id, previousLast)));
    }
    // the copy's last line is its leaf (every real file ends on its active path)
    previousLast = ids.get((source[source.length - 1] as Record<string, unknown>).id as string) ?? previousLast;
  }
  return `${lines.join("\n")}\n`;
}
