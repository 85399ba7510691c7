/**
 * The store API's read slice over the team archive in PostgreSQL, for one principal: the same
 * methods as `SessionStore` (packages/store/src/session-store.ts), answering through promises, on
 * the sessions of the principal's projects only (another project's session is answered exactly as
 * one that does not exist). Sessions get in by a push (receive.ts), never from a host file; every
 * call that would change a session, import or follow a file, or write an export is refused with a
 * read-only ArchiveError, nothing changed. The store API's conformance suite runs on it
 * (test/conformance.test.ts; docs/TEAM.md lists what it implements).
 */
import { buildSessionContext, packSkeleton, resolveLabels, summarizeContext, type ContextSummary, type PackedSkeleton, type SessionEntry, type SessionHeader, type SkeletonNode, type TreeSkeleton } from "@bonsai/core";
import { SessionLookupError, type PathNode, type PrunedOriginal, type SearchHit, type SearchOptions, type SessionSummary, type StoredEntryInfo } from "@bonsai/store";
import { deriveColumns } from "@bonsai/store/derive";
import type pg from "pg";
import { archivedSessionSummaries, archivedSessionSummary, parseHeader } from "./archive-summary";
import { skeletonNodeOf } from "./archive-skeleton";
import { ArchiveError } from "./errors";
import type { Principal } from "./people";
import { searchArchive } from "./archive-search";
import { archivedSessionJsonl } from "./reads";
import { ReadableSessionsSql } from "./readable-sql";

/** The narrow row of an entry: enough to walk the tree without reading any entry's JSON. */
interface TreeRow {
  seq: number;
  entry_id: string;
  parent_id: string | null;
}

function refuse(what: string): ArchiveError {
  return new ArchiveError("read-only", `a team archive is read-only: it cannot ${what} (sessions get in only by \`bonsai push\`)`);
}

/** An archived entry as read: pushed entries were checked to be objects with a string id and type. */
function parseEntry(json: string): SessionEntry {
  return JSON.parse(json) as SessionEntry;
}

/**
 * The path root -> `leafId` over the narrow rows, as core's getPath walks it: an unknown parent ends
 * it (an orphan is a root), and so does an entry met twice (a cycle); an unknown leaf gives none.
 */
function walkPath(rows: readonly TreeRow[], leafId: string | null): TreeRow[] {
  const byId = new Map(rows.map((r) => [r.entry_id, r]));
  const path: TreeRow[] = [];
  const seen = new Set<string>();
  let at = leafId === null ? undefined : byId.get(leafId);
  while (at && !seen.has(at.entry_id)) {
    seen.add(at.entry_id);
    path.push(at);
    at = at.parent_id === null ? undefined : byId.get(at.parent_id);
  }
  return path.reverse();
}

export class ArchiveStore {
  constructor(
    private readonly pool: pg.Pool,
    readonly principal: Principal,
  ) {}

  // ------------------------------------------------------------ sessions
  async listSessions(): Promise<SessionSummary[]> {
    return (await archivedSessionSummaries(this.pool, this.principal)).map(({ pk: _pk, ...summary }) => summary);
  }

  async getSession(sessionId: string): Promise<SessionSummary | undefined> {
    const found = await archivedSessionSummary(this.pool, this.principal, sessionId);
    if (!found) return undefined;
    const { pk: _pk, ...summary } = found;
    return summary;
  }

  /** a full id or a unique prefix of one among the sessions the principal may read; SessionLookupError otherwise */
  async resolveSessionId(idOrPrefix: string): Promise<string> {
    const q = idOrPrefix.trim();
    if (q === "") throw new SessionLookupError("empty session id");
    const like = `${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const sql = new ReadableSessionsSql(this.principal, like).and("s.session_id LIKE $2");
    const ids = (await this.pool.query<{ session_id: string }>(`SELECT DISTINCT s.session_id FROM sessions s WHERE ${sql.where} ORDER BY s.session_id LIMIT 11`, sql.params)).rows.map((r) => r.session_id);
    if (ids.includes(q)) return q;
    if (ids.length === 1) return ids[0] as string;
    if (ids.length === 0) throw new SessionLookupError(`no session in the archive that you may read matches "${q}"`);
    throw new SessionLookupError(`"${q}" matches ${ids.length > 10 ? "more than 10" : ids.length} sessions: ${ids.slice(0, 10).join(", ")}; give more characters`, ids.slice(0, 10));
  }

  async getHeader(sessionId: string): Promise<SessionHeader> {
    const row = (await this.pool.query<{ header: string }>("SELECT header FROM sessions WHERE id = $1", [await this.pk(sessionId)])).rows[0];
    return parseHeader(row?.header ?? "");
  }

  /** an archived session's leaf is its last entry (a leaf move is not pushed) */
  async getLeaf(sessionId: string): Promise<string | null> {
    return this.lastEntryId(sessionId);
  }

  async lastEntryId(sessionId: string): Promise<string | null> {
    const row = (await this.pool.query<{ entry_id: string }>("SELECT entry_id FROM entries WHERE session_pk = $1 ORDER BY seq DESC LIMIT 1", [await this.pk(sessionId)])).rows[0];
    return row?.entry_id ?? null;
  }

  async countSessionShape(sessionId: string): Promise<{ compactions: number; branches: number }> {
    const row = (
      await this.pool.query<{ entries: number; compactions: number; parents: number }>(
        `SELECT count(*)::int AS entries, count(*) FILTER (WHERE type = 'compaction')::int AS compactions,
                (SELECT count(DISTINCT c.parent_id)::int FROM entries c JOIN entries p ON p.session_pk = c.session_pk AND p.entry_id = c.parent_id WHERE c.session_pk = $1) AS parents
           FROM entries WHERE session_pk = $1`,
        [await this.pk(sessionId)],
      )
    ).rows[0] ?? { entries: 0, compactions: 0, parents: 0 };
    return { compactions: row.compactions, branches: Math.max(row.entries > 0 ? 1 : 0, row.entries - row.parents) };
  }

  // ------------------------------------------------------------ entries
  async loadEntries(sessionId: string): Promise<SessionEntry[]> {
    const rows = await this.pool.query<{ entry: string }>("SELECT entry FROM entries WHERE session_pk = $1 ORDER BY seq", [await this.pk(sessionId)]);
    return rows.rows.map((r) => parseEntry(r.entry));
  }

  async getEntryInfo(sessionId: string, entryId: string): Promise<StoredEntryInfo | undefined> {
    const row = (await this.pool.query<{ seq: number; entry: string }>("SELECT seq, entry FROM entries WHERE session_pk = $1 AND entry_id = $2", [await this.pk(sessionId), entryId])).rows[0];
    return row && { entry: parseEntry(row.entry), seq: row.seq, line: null };
  }

  async getEntry(sessionId: string, entryId: string): Promise<SessionEntry | undefined> {
    return (await this.getEntryInfo(sessionId, entryId))?.entry;
  }

  async hasEntry(sessionId: string, entryId: string): Promise<boolean> {
    const rows = await this.pool.query("SELECT 1 FROM entries WHERE session_pk = $1 AND entry_id = $2", [await this.pk(sessionId), entryId]);
    return (rows.rowCount ?? 0) > 0;
  }

  /** the entries with these ids, in the order asked (undefined for an id not in the session) */
  async getEntries(sessionId: string, entryIds: readonly string[]): Promise<(SessionEntry | undefined)[]> {
    const found = await this.byIds(sessionId, entryIds);
    return entryIds.map((id) => found.get(id));
  }

  async getPreviews(sessionId: string, entryIds: readonly string[]): Promise<string[]> {
    const found = await this.byIds(sessionId, entryIds);
    return entryIds.map((id) => {
      const entry = found.get(id);
      return entry ? deriveColumns(entry, false).preview : "";
    });
  }

  async getLabel(sessionId: string, entryId: string): Promise<string | undefined> {
    const labels = await this.pool.query<{ entry: string }>("SELECT entry FROM entries WHERE session_pk = $1 AND type = 'label' ORDER BY seq", [await this.pk(sessionId)]);
    return resolveLabels(labels.rows.map((r) => parseEntry(r.entry))).get(entryId);
  }

  // ------------------------------------------------------------ skeleton
  async getSkeleton(sessionId: string): Promise<TreeSkeleton> {
    const entries = await this.loadEntries(sessionId);
    const labels = resolveLabels(entries);
    return { sessionId, leafId: entries.at(-1)?.id ?? null, nodes: entries.map((e) => skeletonNodeOf(e, labels.get(e.id))) };
  }

  async getPackedSkeleton(sessionId: string): Promise<PackedSkeleton> {
    return packSkeleton(await this.getSkeleton(sessionId), { previews: "heads" });
  }

  async getSkeletonTail(sessionId: string, from: number): Promise<SkeletonNode[]> {
    return (await this.getSkeleton(sessionId)).nodes.slice(Math.max(0, Math.floor(from)));
  }

  // ------------------------------------------------------------ paths and contexts
  async getPath(sessionId: string, leafId?: string | null): Promise<SessionEntry[]> {
    const pk = await this.pk(sessionId);
    const path = walkPath(await this.treeRows(pk), leafId === undefined ? await this.lastEntryId(sessionId) : leafId);
    const rows = await this.pool.query<{ seq: number; entry: string }>("SELECT seq, entry FROM entries WHERE session_pk = $1 AND seq = ANY($2::int[])", [pk, path.map((r) => r.seq)]);
    const bySeq = new Map(rows.rows.map((r) => [r.seq, r.entry]));
    return path.map((r) => parseEntry(bySeq.get(r.seq) as string));
  }

  async getPathNodes(sessionId: string, leafId?: string | null): Promise<PathNode[]> {
    return (await this.getPath(sessionId, leafId)).map((entry) => {
      const derived = deriveColumns(entry, false);
      const node: PathNode = { id: entry.id, type: entry.type, tokens: derived.tokens };
      if (entry.type === "compaction" && derived.refId !== null) node.firstKeptEntryId = derived.refId;
      return node;
    });
  }

  async areOnPath(sessionId: string, entryIds: readonly string[], leafId?: string | null): Promise<boolean[]> {
    const pk = await this.pk(sessionId);
    const onPath = new Set(walkPath(await this.treeRows(pk), leafId === undefined ? await this.lastEntryId(sessionId) : leafId).map((r) => r.entry_id));
    return entryIds.map((id) => onPath.has(id));
  }

  async isOnPath(sessionId: string, entryId: string, leafId?: string | null): Promise<boolean> {
    return (await this.areOnPath(sessionId, [entryId], leafId))[0] === true;
  }

  /** the path to the leaf: everything buildSessionContext reads (a context is built from its path) */
  async getContextEntries(sessionId: string, leafId?: string | null): Promise<SessionEntry[]> {
    return this.getPath(sessionId, leafId);
  }

  async getContextSummary(sessionId: string, leafId?: string | null): Promise<ContextSummary> {
    const leaf = leafId === undefined ? await this.getLeaf(sessionId) : leafId;
    return summarizeContext(buildSessionContext(await this.getPath(sessionId, leaf), leaf));
  }

  // ------------------------------------------------------------ export, search
  /** the session as JSONL, as pushed: its header line and its entries in order */
  async renderJsonl(sessionId: string): Promise<string> {
    await this.pk(sessionId);
    return (await archivedSessionJsonl(this.pool, this.principal, sessionId)).jsonl;
  }

  /** a push sends entries as the machine holds them (pruned ones pruned); the originals stay there */
  async listPruned(sessionId: string): Promise<PrunedOriginal[]> {
    await this.pk(sessionId);
    return [];
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const hits = await searchArchive(this.pool, this.principal, query, { limit: options.limit, sessionId: options.sessionId });
    return hits.map(({ project: _project, pushedBy: _pushedBy, ...hit }) => hit);
  }

  // ------------------------------------------------------------ refused: an archive changes only by a push
  importFile(): Promise<never> {
    return Promise.reject(refuse("import a session file"));
  }
  importPaths(): Promise<never> {
    return Promise.reject(refuse("import session folders"));
  }
  appendEntry(): Promise<never> {
    return Promise.reject(refuse("append an entry"));
  }
  appendLabel(): Promise<never> {
    return Promise.reject(refuse("label an entry"));
  }
  setLeaf(): Promise<never> {
    return Promise.reject(refuse("move a session's leaf"));
  }
  applyPruning(): Promise<never> {
    return Promise.reject(refuse("prune tool outputs"));
  }
  restorePruned(): Promise<never> {
    return Promise.reject(refuse("restore pruned tool outputs"));
  }
  follow(): Promise<never> {
    return Promise.reject(refuse("follow session files"));
  }
  exportJsonl(): Promise<never> {
    return Promise.reject(refuse("write a file on its host (read the session with renderJsonl)"));
  }
  /** nothing changes an archive but a push, and the archive's store announces nothing */
  on(): () => void {
    throw refuse("announce changes");
  }

  // ------------------------------------------------------------ rows
  /** the archive's key of a session the principal may read; SessionLookupError (as for an unknown one) otherwise */
  private async pk(sessionId: string): Promise<string> {
    const sql = new ReadableSessionsSql(this.principal, sessionId).and("s.session_id = $2");
    const row = (await this.pool.query<{ id: string }>(`SELECT s.id FROM sessions s WHERE ${sql.where} ORDER BY s.pushed_at DESC LIMIT 1`, sql.params)).rows[0];
    if (!row) throw new SessionLookupError(`no session ${sessionId} in the archive that you may read`);
    return row.id;
  }

  private async treeRows(pk: string): Promise<TreeRow[]> {
    return (await this.pool.query<TreeRow>("SELECT seq, entry_id, parent_id FROM entries WHERE session_pk = $1 ORDER BY seq", [pk])).rows;
  }

  private async byIds(sessionId: string, entryIds: readonly string[]): Promise<Map<string, SessionEntry>> {
    const rows = await this.pool.query<{ entry_id: string; entry: string }>("SELECT entry_id, entry FROM entries WHERE session_pk = $1 AND entry_id = ANY($2::text[])", [
      await this.pk(sessionId),
      [...entryIds],
    ]);
    return new Map(rows.rows.map((r) => [r.entry_id, parseEntry(r.entry)]));
  }
}
