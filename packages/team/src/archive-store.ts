/**
 * The one read path of the team archive in PostgreSQL, for one principal: the same methods as
 * `SessionStore` (packages/store/src/session-store.ts), answering through promises, on the
 * sessions of the principal's projects only (another project's session is answered exactly as one
 * that does not exist), plus the reads the HTTP API and the page need (a page of the list, search
 * hits with their keys, a session's JSONL as a stream, single entries, the amnesia report). The
 * HTTP routes (server.ts), the page (app/) and `--archive` (through the HTTP routes) read sessions
 * only through it; the modules it reads with (archive-resolver.ts, archive-summary.ts, reads.ts,
 * session-list.ts, app/direct-reads.ts, archive-amnesia.ts, archive-derived-reads.ts) are imported by nothing else
 * (test/one-read-path.test.ts). A session is named by its key, "project/person/id"
 * (archive-identity.ts); every method takes any reference the one resolver takes. Sessions get in
 * by a push (receive.ts), never from a host file; every call that would change a session, import
 * or follow a file, or write an export is refused with a read-only ArchiveError, nothing changed.
 * The store API's conformance suite runs on it (test/conformance.test.ts).
 */
import { buildIndex, buildSessionContext, packSkeleton, planBranch, planPruningOf, resolveLabels, summarizePrunePlan, summarizeContext, toolResultsOf } from "@bonsai/core";
import type { BranchPlan, ContextSummary, PackedSkeleton, PruneConfig, PrunePlan, PruneSummary, SessionEntry, SessionHeader, SkeletonNode, ToolResultOnPath, TreeSkeleton } from "@bonsai/core";
import type { ReadSession } from "@bonsai/formats";
import type { AmnesiaOverview } from "@bonsai/core";
import type { EntryDetail } from "@bonsai/ipc";
import { seriesOfNodes, SessionLookupError, type Async, type ContextMessageRows, type PathNode, type PrunedOriginal, type SearchHit, type SearchOptions, type SessionSummary, type SizeSeries, type StoredEntryInfo, type StoreReads } from "@bonsai/store";
import { deriveColumns } from "@bonsai/store/derive";
import type pg from "pg";
import type { AmnesiaScore } from "./amnesia-scorer";
import { archiveAmnesia } from "./archive-amnesia";
import { archivedReadSession, compactionWindowOf } from "./archive-derived-reads";
import { archivedCommitCounts, archivedCommits } from "./archive-commits";
import type { PushedCommit } from "./receive";
import { parseArchiveReference } from "./archive-identity";
import { resolveArchivedSession, type ArchivedSessionRow } from "./archive-resolver";
import { archivedSessionSummaries, archivedSessionSummary, parseHeader } from "./archive-summary";
import { skeletonNodeOf } from "./archive-skeleton";
import { entryDetailFromArchive, previewsFromArchive } from "./app/direct-reads";
import { ArchiveError } from "./errors";
import type { Principal } from "./people";
import { searchArchive, type ArchiveSearchHit } from "./archive-search";
import { entryChunksFrom, sessionJsonlChunks, type ArchivedSession } from "./reads";
import { ReadableSessionsSql } from "./readable-sql";
import { listArchivedPage, type ArchivedPage, type ListOptions } from "./session-list";

export type { ArchivedSessionRow } from "./archive-resolver";

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

export class ArchiveStore implements Async<StoreReads> {
  constructor(
    private readonly pool: pg.Pool,
    readonly principal: Principal,
  ) {}

  // ------------------------------------------------------------ the one resolver
  /** the session `reference` names ("project/person/id", "project/id" or "id", the id whole or a unique prefix); SessionLookupError otherwise */
  async session(reference: string): Promise<ArchivedSessionRow> {
    return resolveArchivedSession(this.pool, this.principal, reference);
  }

  // ------------------------------------------------------------ sessions
  async listSessions(): Promise<SessionSummary[]> {
    return (await archivedSessionSummaries(this.pool, this.principal)).map(({ pk: _pk, ...summary }) => summary);
  }

  /** the session that `sessionId` names exactly (a key, or an id only one readable session has; no prefix) */
  async getSession(sessionId: string): Promise<SessionSummary | undefined> {
    const row = await this.session(sessionId).catch((error: unknown) => {
      if (error instanceof SessionLookupError) return undefined;
      throw error;
    });
    if (!row || row.sessionId !== parseArchiveReference(sessionId).id) return undefined;
    const found = await archivedSessionSummary(this.pool, this.principal, row.pk);
    if (!found) return undefined;
    const { pk: _pk, ...summary } = found;
    return summary;
  }

  /** the key of the one session the reference names among those the principal may read; SessionLookupError otherwise */
  /** Whether the caller may read the archive's row `pk` (a download ticket's session): the access rule on that row alone. */
  async mayReadRow(pk: string): Promise<boolean> {
    if (!/^\d+$/u.test(pk)) return false;
    const sql = new ReadableSessionsSql(this.principal, pk).and("s.id = $2::bigint");
    return (await this.pool.query(`SELECT 1 FROM sessions s WHERE ${sql.where}`, sql.params)).rowCount === 1;
  }

  /** The commits the session produced (pushed with a session imported from a checkpoint branch; [] when none). */
  async commits(reference: string): Promise<PushedCommit[]> {
    return archivedCommits(this.pool, (await this.session(reference)).pk);
  }

  /** Each readable session's key -> how many commits it produced, for those with any. */
  async commitCounts(): Promise<[string, number][]> {
    return archivedCommitCounts(this.pool, this.principal);
  }

  async resolveSessionId(idOrPrefix: string): Promise<string> {
    return (await this.session(idOrPrefix)).key;
  }

  /** a page of the session list, newest push first, filtered in PostgreSQL (session-list.ts) */
  async listPage(options: ListOptions = {}): Promise<ArchivedPage> {
    return listArchivedPage(this.pool, this.principal, options);
  }

  async listArchived(options: ListOptions = {}): Promise<ArchivedSession[]> {
    return (await this.listPage(options)).sessions;
  }

  /** the people who pushed a session the principal may read, by name */
  async pushers(): Promise<string[]> {
    const sql = new ReadableSessionsSql(this.principal).and("s.pushed_by = u.id");
    return (await this.pool.query<{ name: string }>(`SELECT u.name FROM people u WHERE EXISTS (SELECT 1 FROM sessions s WHERE ${sql.where}) ORDER BY u.name`, sql.params)).rows.map((r) => r.name);
  }

  async getHeader(sessionId: string): Promise<SessionHeader> {
    return parseHeader((await this.session(sessionId)).header);
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
    return { sessionId: await this.resolveSessionId(sessionId), leafId: entries.at(-1)?.id ?? null, nodes: entries.map((e) => skeletonNodeOf(e, labels.get(e.id))) };
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

  /**
   * null, as the contract answers for a session without derived columns: the archive keeps none, so
   * a context preview builds its lists from getContextEntries (what the SQLite store's columns give).
   */
  async getContextMessages(sessionId: string): Promise<ContextMessageRows | null> {
    await this.session(sessionId);
    return null;
  }

  /** the sum of getContextSummary's token estimates (the archive has no aggregate columns: from the path's messages) */
  async getContextTokens(sessionId: string, leafId: string | null): Promise<number | undefined> {
    return (await this.getContextSummary(sessionId, leafId)).tokens.reduce((sum, t) => sum + t, 0);
  }

  async getCompactionWindow(sessionId: string, leafId?: string | null): Promise<SessionEntry[]> {
    return compactionWindowOf(await this.getPath(sessionId, leafId));
  }

  async getSizeSeries(sessionId: string, leafId: string | null, buckets: number): Promise<SizeSeries> {
    return seriesOfNodes(await this.getPathNodes(sessionId, leafId), buckets);
  }

  // ------------------------------------------------------------ plans (core's planners on the entries read)
  async getToolResultsOnPath(sessionId: string, leafId?: string | null): Promise<ToolResultOnPath[]> {
    return toolResultsOf(await this.getPath(sessionId, leafId));
  }

  async getPrunePlan(sessionId: string, leafId: string | null | undefined, config: PruneConfig): Promise<PrunePlan> {
    return planPruningOf(await this.getToolResultsOnPath(sessionId, leafId), config);
  }

  async getPruneSummary(sessionId: string, leafId: string | null | undefined, config: PruneConfig): Promise<PruneSummary> {
    return summarizePrunePlan(await this.getPrunePlan(sessionId, leafId, config));
  }

  async getBranchPlan(sessionId: string, fromId: string | null, toId: string, budget: number): Promise<BranchPlan> {
    return planBranch(buildIndex(await this.loadEntries(sessionId)), fromId, toId, budget);
  }

  // ------------------------------------------------------------ export, search
  /** the session as the formats layer reads it (a pi session: a push sends pi-form entries); leaf default: the last entry */
  async readSession(sessionId: string, leafId?: string | null): Promise<ReadSession> {
    const row = await this.session(sessionId);
    const summary = await archivedSessionSummary(this.pool, this.principal, row.pk);
    if (!summary) throw new SessionLookupError(`no session ${sessionId}`);
    const entries = await this.loadEntries(row.key);
    return archivedReadSession(summary, parseHeader(row.header), entries, leafId === undefined ? (entries.at(-1)?.id ?? null) : leafId);
  }

  /** the session as JSONL, as pushed: its header line and its entries in order */
  async renderJsonl(sessionId: string): Promise<string> {
    const parts: Buffer[] = [];
    for await (const chunk of (await this.openJsonl(sessionId)).chunks) parts.push(chunk);
    return Buffer.concat(parts).toString("utf8");
  }

  /** The session as JSONL, streamed (reads.ts): resolved before anything is read. */
  async openJsonl(reference: string): Promise<{ row: ArchivedSessionRow; chunks: AsyncGenerator<Buffer, void, undefined> }> {
    const row = await this.session(reference);
    return { row, chunks: sessionJsonlChunks(this.pool, row) };
  }

  /** The entries at positions `fromSeq` and after of the session `key` names, as JSONL lines, and its row: what a copy made earlier lacks after a push appended. */
  async openEntriesFrom(key: string, fromSeq: number): Promise<{ row: ArchivedSessionRow; chunks: AsyncGenerator<Buffer, void, undefined> }> {
    const row = await this.session(key);
    return { row, chunks: entryChunksFrom(this.pool, row.pk, fromSeq) };
  }

  /** a push sends entries as the machine holds them (pruned ones pruned); the originals stay there */
  async listPruned(sessionId: string): Promise<PrunedOriginal[]> {
    await this.session(sessionId);
    return [];
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const hits = await this.searchHits(query, { ...(options.limit !== undefined ? { limit: options.limit } : {}), ...(options.sessionId !== undefined ? { session: options.sessionId } : {}) });
    return hits.map(({ key, project: _project, pushedBy: _pushedBy, sessionId: _id, ...hit }) => ({ ...hit, sessionId: key }));
  }

  /** Search with each hit's project, pusher and key; within the one session `session` names when given (a name the principal may not read finds nothing). */
  async searchHits(query: string, options: { limit?: number; session?: string; project?: string } = {}): Promise<ArchiveSearchHit[]> {
    let sessionPk: string | undefined;
    if (options.session !== undefined) {
      const row = await this.session(options.session).catch(() => undefined);
      if (!row) return [];
      sessionPk = row.pk;
    }
    return searchArchive(this.pool, this.principal, query, { ...(options.limit !== undefined ? { limit: options.limit } : {}), ...(sessionPk !== undefined ? { sessionPk } : {}), ...(options.project !== undefined ? { project: options.project } : {}) });
  }

  /** 0 once the session is readable: PostgreSQL indexes each entry as a push stores it (archive-search.ts) */
  async unindexedCount(sessionId?: string): Promise<number> {
    if (sessionId !== undefined) await this.session(sessionId);
    return 0;
  }

  /** an archive keeps no titles given in Bonsai (a push sends the session's own title): none */
  async getSessionTitles(): Promise<Map<string, string>> {
    return new Map();
  }

  /** an archive has no settings of its own (a machine's settings stay on it): none saved */
  async getSettingsJson(): Promise<unknown> {
    return undefined;
  }

  // ------------------------------------------------------------ the page's reads before a copy exists (app/direct-reads.ts)
  /** the inspector's read of one entry of the resolved session `row`; null when only a copy can answer it */
  async entryDetail(row: ArchivedSessionRow, entryId: string): Promise<EntryDetail | null> {
    return entryDetailFromArchive(this.pool, row, entryId);
  }

  async previews(row: ArchivedSessionRow, entryIds: readonly string[]): Promise<string[]> {
    return previewsFromArchive(this.pool, row, entryIds);
  }

  /** the amnesia report over the sessions the principal may read (archive-amnesia.ts), each named by its key */
  async amnesiaOverview(options: { project?: string } = {}, score?: AmnesiaScore): Promise<AmnesiaOverview> {
    return archiveAmnesia(this.pool, this.principal, options, score);
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
  /** the archive's row of the session the reference names (the one resolver); SessionLookupError otherwise */
  private async pk(sessionId: string): Promise<string> {
    return (await this.session(sessionId)).pk;
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
