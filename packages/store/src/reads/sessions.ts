/** The session rows and whole-session reads (summaries, id lookups, the header, every entry, the JSONL). */
import type { SessionEntry, SessionHeader } from "@bonsai/core";
import { SessionLookupError, type SessionSummary, type StoredEntryInfo } from "../session-store";
import type { AgentFields } from "../foreign/agents";
import type { Statements } from "./path";
import { byId, lastFirst } from "../id-tiers";

/** a row of `sessions` (SQL side) */
export interface SessionRow {
  id: string;
  header_id: string;
  title: string | null;
  cwd: string;
  header_json: string;
  source_path: string | null;
  source_format: "pi-jsonl" | "bonsai" | "claude-code" | "codex";
  source_version: number;
  leaf_id: string | null;
  created_at: string;
  updated_at: string;
  imported_at: string | null;
  entry_count: number;
  message_count: number;
  first_message: string;
  file_size: number | null;
  file_offset: number | null;
  file_lines: number | null;
  file_mtime_ms: number | null;
  head_hash: string | null;
  tail_hash: string | null;
  generation: number;
  irregular: number;
  /** why changes stay in the store instead of the source file; null while written through */
  detached: string | null;
}

function toSummary(r: SessionRow & { pruned_count?: number }, agent: AgentFields): SessionSummary {
  return {
    id: r.id,
    headerId: r.header_id,
    title: r.title,
    cwd: r.cwd,
    sourcePath: r.source_path,
    sourceFormat: r.source_format,
    sourceVersion: r.source_version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    importedAt: r.imported_at,
    entryCount: r.entry_count,
    messageCount: r.message_count,
    firstMessage: r.first_message,
    leafId: r.leaf_id,
    prunedCount: r.pruned_count ?? 0,
    generation: r.generation,
    detached: r.detached ?? null,
    ...agent, // foreign: agent, compactions, read-only, parent session
  };
}

export class SessionRows {
  /** @param agentOf the agent fields of a session (foreign/agents.ts) */
  constructor(
    private readonly sql: Statements,
    private readonly agentOf: (row: SessionRow) => AgentFields,
  ) {}

  row(id: string): SessionRow | undefined {
    return this.sql.get("SELECT * FROM sessions WHERE id = ?").get(id) as SessionRow | undefined;
  }

  require(id: string): SessionRow {
    const row = this.row(id);
    if (!row) throw new SessionLookupError(`no session ${id} in the store`);
    return row;
  }

  list(): SessionSummary[] {
    const rows = this.sql
      .get(
        `SELECT s.*, (SELECT count(*) FROM pruned_outputs p WHERE p.session_id = s.id) AS pruned_count
         FROM sessions s ORDER BY s.updated_at DESC, s.id`,
      )
      .all() as (SessionRow & { pruned_count: number })[];
    return rows.map((r) => toSummary(r, this.agentOf(r)));
  }

  summary(sessionId: string): SessionSummary | undefined {
    const r = this.sql.get("SELECT s.*, (SELECT count(*) FROM pruned_outputs p WHERE p.session_id = s.id) AS pruned_count FROM sessions s WHERE s.id = ?").get(sessionId) as
      | (SessionRow & { pruned_count: number })
      | undefined;
    return r ? toSummary(r, this.agentOf(r)) : undefined;
  }

  resolveId(idOrPrefix: string): string {
    const q = idOrPrefix.trim();
    if (q === "") throw new SessionLookupError("empty session id");
    if (this.row(q)) return q;
    const escaped = q.replace(/[\\%_]/g, (c) => `\\${c}`);
    const ids = this.sql.get("SELECT id FROM sessions WHERE id LIKE ? ESCAPE '\\' OR header_id = ? ORDER BY id LIMIT 11").pluck().all(`${escaped}%`, q) as string[];
    if (ids.length === 1) return ids[0] as string;
    if (ids.length === 0) throw new SessionLookupError(`no stored session matches "${q}" (run "bonsai ls" to see them)`);
    throw new SessionLookupError(`"${q}" matches ${ids.length > 10 ? "more than 10" : ids.length} sessions: ${ids.slice(0, 10).join(", ")}; give more characters`, ids);
  }

  header(sessionId: string): SessionHeader {
    return JSON.parse(this.require(sessionId).header_json) as SessionHeader;
  }

  entries(sessionId: string): SessionEntry[] {
    this.require(sessionId);
    const rows = this.sql.get("SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? ORDER BY e.seq").pluck().all(sessionId) as string[];
    return rows.map((j) => JSON.parse(j) as SessionEntry);
  }

  entryInfo(sessionId: string, entryId: string): StoredEntryInfo | undefined {
    const r = this.sql.get(`SELECT j.json, e.seq, e.line FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE ${byId("e")} ORDER BY ${lastFirst("e")} LIMIT 1`).get(sessionId, entryId) as
      | { json: string; seq: number; line: number | null }
      | undefined;
    return r ? { entry: JSON.parse(r.json) as SessionEntry, seq: r.seq, line: r.line } : undefined;
  }

  /** the header and every entry as stored, one line each */
  jsonl(sessionId: string): string {
    const row = this.require(sessionId);
    const parts: string[] = [`${row.header_json}\n`];
    for (const json of this.sql.get("SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? ORDER BY e.seq").pluck().iterate(sessionId) as IterableIterator<string>) {
      parts.push(`${json}\n`);
    }
    return parts.join("");
  }
}
