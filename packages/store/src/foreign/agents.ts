/**
 * session_agents (migration 007): which agent wrote each session, its compaction count, and what the
 * formats layer knows of a Claude Code or Codex file besides its entries. Kept current by the
 * store's insert and clear of entries, so that listing sessions never reads an entry.
 */
import type Database from "better-sqlite3";
import { compactionCountStep, type SessionEntry } from "@bonsai/core";
import type { AgentKind, ReadState } from "@bonsai/formats";
import { isForeignFormat, readOnlyReason } from "./read-only";
import { Statements } from "./statements";

/** pi_traits bits */
const OMP_TRAIT = 1;
const PI_TRAIT = 2;

const OMP_ENTRY_TYPES = new Set(["ttsr_injection", "session_init", "mode_change"]);
const OMP_ROLES = new Set(["pythonExecution", "fileMention"]);

/** What the formats layer knows of a foreign file besides its entries (session_agents.foreign_json). */
export type ForeignFacts = Pick<ReadState, "original" | "links" | "stats">;

/** The agent fields of a session summary. */
export interface AgentFields {
  agent: AgentKind;
  compactionCount: number;
  readOnly: string | null;
  parentSession: string | null;
}

/** oh-my-pi-only and pi-mono-only traits of pi entries (formats' piFlavor, one entry at a time). */
function piTraits(entries: readonly SessionEntry[]): number {
  let traits = 0;
  for (const e of entries as readonly Record<string, unknown>[]) {
    if (e.fromExtension !== undefined) traits |= OMP_TRAIT;
    if (e.fromHook !== undefined) traits |= PI_TRAIT;
    if (e.type === "message") {
      const m = e.message as { role?: unknown } | undefined;
      if (m && OMP_ROLES.has(m.role as string)) traits |= OMP_TRAIT;
    } else if (OMP_ENTRY_TYPES.has(e.type as string)) traits |= OMP_TRAIT;
    else if (e.type === "model_change") {
      if (typeof e.model === "string") traits |= OMP_TRAIT;
      if (typeof e.provider === "string" && typeof e.modelId === "string") traits |= PI_TRAIT;
    }
  }
  return traits;
}

/** Compactions and pi traits of entries stored in batches, written once (SessionAgents.noteTally). */
export class AgentTally {
  traits = 0;
  compactions = 0;

  add(entries: readonly SessionEntry[]): void {
    // an undone compaction does not count (its bonsai-undo marker takes it back, a redo counts it again)
    for (const e of entries) this.compactions += compactionCountStep(e);
    this.traits |= piTraits(entries);
  }
}

/** pi or omp: the agent's own folder decides, else the traits read (omp only with omp traits and no pi ones). */
function piAgent(sourcePath: string | null, traits: number): AgentKind {
  const parts = sourcePath ? sourcePath.split(/[/\\]/) : [];
  if (parts.includes(".omp")) return "omp";
  if (parts.includes(".pi")) return "pi";
  return traits & OMP_TRAIT && !(traits & PI_TRAIT) ? "omp" : "pi";
}

export class SessionAgents {
  readonly #sql: Statements;

  constructor(db: Database.Database) {
    this.#sql = new Statements(db);
  }

  /** Entries were stored (any path: import, follow, append): count compactions, note pi traits. */
  noteInserted(sessionId: string, entries: readonly SessionEntry[]): void {
    const tally = new AgentTally();
    tally.add(entries);
    this.noteTally(sessionId, tally);
  }

  /** What a tally collected over the batches of one import (one write instead of one per batch). */
  noteTally(sessionId: string, tally: AgentTally): void {
    const { traits, compactions } = tally;
    this.#sql.get(
      `INSERT INTO session_agents (session_id, agent, pi_traits, compactions) VALUES (?, 'pi', ?, ?)
       ON CONFLICT (session_id) DO UPDATE SET pi_traits = pi_traits | excluded.pi_traits, compactions = compactions + excluded.compactions`,
    ).run(sessionId, traits, compactions);
  }

  /** The session's entries were removed (a whole re-import follows). */
  noteCleared(sessionId: string): void {
    this.#sql.get("UPDATE session_agents SET compactions = 0, pi_traits = 0 WHERE session_id = ?").run(sessionId);
  }

  /** A Claude Code or Codex file was read (before its entries are inserted). */
  setForeign(sessionId: string, agent: AgentKind, facts: ForeignFacts): void {
    this.#sql.get(
      `INSERT INTO session_agents (session_id, agent, pi_traits, compactions, foreign_json) VALUES (?, ?, 0, 0, ?)
       ON CONFLICT (session_id) DO UPDATE SET agent = excluded.agent, foreign_json = excluded.foreign_json`,
    ).run(sessionId, agent, JSON.stringify(factsOf(facts)));
  }

  /** The file is a pi session again (it was rewritten): forget what the foreign reader knew. */
  clearForeign(sessionId: string): void {
    this.#sql.get("UPDATE session_agents SET agent = 'pi', foreign_json = NULL WHERE session_id = ?").run(sessionId);
  }

  foreignFacts(sessionId: string): ForeignFacts | null {
    const json = this.#sql.get("SELECT foreign_json FROM session_agents WHERE session_id = ?").pluck().get(sessionId) as string | null | undefined;
    return typeof json === "string" ? (JSON.parse(json) as ForeignFacts) : null;
  }

  /** The agent fields of a session's summary. */
  fields(row: { id: string; source_format: string; source_path: string | null; header_json: string }): AgentFields {
    const r = this.#sql.get("SELECT agent, pi_traits, compactions FROM session_agents WHERE session_id = ?").get(row.id) as
      | { agent: AgentKind; pi_traits: number; compactions: number }
      | undefined;
    const header = JSON.parse(row.header_json) as { parentSession?: unknown; title?: unknown };
    // an oh-my-pi header has a title (pi's has none)
    const traits = (r?.pi_traits ?? 0) | (row.source_path !== null && typeof header.title === "string" ? OMP_TRAIT : 0);
    const agent = isForeignFormat(row.source_format) ? (r?.agent ?? row.source_format) : piAgent(row.source_path, traits);
    return {
      agent,
      compactionCount: Math.max(0, r?.compactions ?? 0),
      readOnly: readOnlyReason(row.source_format),
      parentSession: typeof header.parentSession === "string" && header.parentSession !== "" ? header.parentSession : null,
    };
  }
}

function factsOf(facts: ForeignFacts): ForeignFacts {
  return { original: facts.original, links: facts.links, stats: facts.stats };
}
