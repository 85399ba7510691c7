/**
 * pi / oh-my-pi sessions behind the reader interface: core's lenient parser and its in-memory
 * migration to v3, unchanged. Whether oh-my-pi or pi wrote the file is read from the content
 * (omp-only fields and entry types against pi-mono-only shapes); a folder may know better.
 */
import {
  defaultLeafId,
  migrateSession,
  parseSessionText,
  type ParseIssue,
  type SessionEntry,
  type SessionHeader,
} from "@bonsai/core";
import type { AgentKind, IncrementalReader, ReadChunk, ReadSession, ReadState, SessionReader } from "../types";
import { isObj } from "../values";

const OMP_ENTRY_TYPES = new Set(["ttsr_injection", "session_init", "mode_change"]);
const OMP_ROLES = new Set(["pythonExecution", "fileMention"]);

/** "omp" when the file shows oh-my-pi-only traits and no pi-mono-only ones, else "pi". */
export function piFlavor(header: SessionHeader, entries: readonly SessionEntry[]): AgentKind {
  let omp = typeof header.title === "string";
  let pi = false;
  for (const e of entries as readonly Record<string, unknown>[]) {
    if (OMP_ENTRY_TYPES.has(e.type as string) || e.fromExtension !== undefined) omp = true;
    if (e.fromHook !== undefined) pi = true;
    if (e.type === "model_change") {
      if (typeof e.model === "string") omp = true;
      if (typeof e.provider === "string" && typeof e.modelId === "string") pi = true;
    }
    if (e.type === "message" && isObj(e.message) && OMP_ROLES.has(e.message.role as string)) omp = true;
  }
  return omp && !pi ? "omp" : "pi";
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n : n + 1;
}

/** Thrown when a text given to a reader is not that reader's format. */
export class NotThisFormatError extends Error {}

/** A pi session already parsed and migrated (a file, or a stored session) as a ReadSession. */
export function piSession(
  header: SessionHeader,
  entries: SessionEntry[],
  options: { leafId?: string | null; title?: string | null; issues?: ParseIssue[]; lines?: number } = {},
): ReadSession {
  const parent = typeof header.parentSession === "string" ? header.parentSession : undefined;
  return {
    format: "pi",
    agent: piFlavor(header, entries),
    header,
    entries,
    leafId: options.leafId !== undefined ? options.leafId : defaultLeafId(entries),
    title: options.title !== undefined ? options.title : typeof header.title === "string" ? header.title : null,
    issues: options.issues ?? [],
    links: { subAgents: [], ...(parent !== undefined ? { parent: { sessionId: parent } } : {}) },
    stats: {
      lines: options.lines ?? entries.length + 1,
      compactions: entries.filter((e) => e.type === "compaction").length,
      microcompactions: 0,
      resumes: 0,
      rollbacks: 0,
      startsMidSession: false,
    },
    original: null,
    readOnly: false,
  };
}

function readPi(text: string): ReadSession {
  const parsed = parseSessionText(text);
  const header = parsed.header;
  if (!header) throw new NotThisFormatError(parsed.issues[0]?.message ?? "not a pi session");
  const entries = parsed.entries;
  migrateSession(header, entries);
  return piSession(header, entries, { issues: parsed.issues, lines: countLines(text) });
}

/** pi files are read whole (the store follows them on its own path): the pieces are read at end(). */
class PiIncremental implements IncrementalReader {
  readonly #pieces: string[] = [];
  #session: ReadSession | null = null;

  push(text: string): ReadChunk {
    this.#pieces.push(text);
    return { entries: [], updated: [] };
  }

  end(): ReadChunk {
    this.#session = readPi(this.#pieces.join(""));
    return { entries: this.#session.entries, updated: [] };
  }

  snapshot(): ReadSession {
    if (!this.#session) throw new Error("a pi session is read at end()");
    return this.#session;
  }

  state(): ReadState {
    return this.snapshot();
  }

  held(): SessionEntry[] {
    return [];
  }
}

export const piReader: SessionReader = {
  format: "pi",
  displayName: "pi / oh-my-pi",
  sniff: (values) => {
    const first = values.find((v) => v !== undefined);
    return isObj(first) && first.type === "session" && typeof first.id === "string";
  },
  read: readPi,
  incremental: () => new PiIncremental(),
};
