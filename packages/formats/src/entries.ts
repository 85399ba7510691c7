/** Reading the fields the foreign readers add to Bonsai entries. */
import type { AgentEventEntry, SourceLine } from "./types";

/** The source lines of an entry (none for pi entries and for entries a reader derived). */
export function sourceLines(entry: unknown): SourceLine[] {
  const source = (entry as { source?: unknown } | null | undefined)?.source;
  return Array.isArray(source) ? (source as SourceLine[]) : [];
}

/** The entry as an agent event (a foreign metadata line), or undefined. */
export function agentEventOf(entry: unknown): AgentEventEntry | undefined {
  const e = entry as { type?: unknown } | null | undefined;
  return e?.type === "agent_event" ? (entry as AgentEventEntry) : undefined;
}
