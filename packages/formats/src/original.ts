/**
 * The agent's file back from a session: for foreign files every entry's source lines in line order
 * (byte for byte what was read, as long as no entry was removed); for pi the current JSONL.
 */
import { serializeSession } from "@bonsai/core";
import { sourceLines } from "./entries";
import type { ReadSession, SourceLine } from "./types";

export function originalText(session: Pick<ReadSession, "header" | "entries" | "original">): string {
  if (!session.original) return serializeSession(session.header, session.entries);
  const lines: SourceLine[] = [];
  for (const entry of session.entries) for (const line of sourceLines(entry)) lines.push(line);
  if (session.original.trailing) lines.push(...session.original.trailing);
  if (lines.length === 0) return "";
  lines.sort((a, b) => a.n - b.n);
  const text = lines.map((l) => l.text).join("\n");
  return session.original.finalNewline ? `${text}\n` : text;
}
