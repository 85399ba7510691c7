/** A stored session as the formats layer reads it (for the pi and HTML exports and "Continue in pi"). */
import type { SessionEntry, SessionHeader } from "@bonsai/core";
import { piSession, type ReadSession } from "@bonsai/formats";
import type { ForeignFacts } from "./agents";
import { isForeignFormat, type ForeignFormat } from "./read-only";

export interface StoredSessionParts {
  format: string;
  agent: ReadSession["agent"];
  header: SessionHeader;
  entries: SessionEntry[];
  leafId: string | null;
  title: string | null;
  /** Claude Code and Codex sessions: what their reader knew besides the entries */
  facts: ForeignFacts | null;
}

export function storedReadSession(parts: StoredSessionParts): ReadSession {
  const { header, entries, leafId, title, facts } = parts;
  if (!isForeignFormat(parts.format) || facts === null) {
    const read = piSession(header, entries, { leafId, title });
    return { ...read, agent: parts.agent };
  }
  return {
    format: parts.format as ForeignFormat,
    agent: parts.agent,
    header,
    entries,
    leafId,
    title,
    issues: [],
    links: facts.links,
    stats: facts.stats,
    original: facts.original,
    readOnly: true,
  };
}
