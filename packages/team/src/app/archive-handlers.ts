/**
 * The app's calls on a team archive, for one signed-in page. Every call first checks the page's
 * token again (a revoked token stops working at the next call) and then reads through ArchiveStore
 * for that person (the one read path: its resolver checks the session against the caller's
 * projects). The list and search come straight from it; the other reads run the app's own
 * handlers over the session cache, except an entry and the previews, which come from it while this
 * process holds no current copy of the session, so they never wait for a whole copy.
 * Every call that would change a session, the settings or the host is refused in one sentence.
 */
import { IpcError, type Handlers, type MethodName, type MethodOutput, type SessionSummaryDto } from "@bonsai/ipc";
import type { Backend } from "@bonsai/backend";
import type pg from "pg";
import { authenticate } from "../people";
import type { AmnesiaScore } from "../amnesia-scorer";
import { ARCHIVE_READ_ONLY } from "../archive-identity";
import { ArchiveStore, type ArchivedSessionRow } from "../archive-store";
import type { ArchivedSession } from "../reads";
import type { ExportDownloads } from "./export-downloads";
import type { PageOpener } from "./page-open";
import { keyedAnswer } from "./page-keys";
import type { ArchiveSessionCache, HeldSession } from "./session-cache";

/** each copy's store id -> the page's name of its session (its key) */
const keysOf = (held: readonly HeldSession[]): Map<string, string> => new Map(held.map((r) => [r.storeId, r.key]));


/** what the page says on every control that would change something (getAppInfo's `readOnly`) */
export const HOST_READ_ONLY = "read-only: a team archive copy";

/** the sessions a page of the page's session list holds */
export const LIST_PAGE = 200;

/** the calls that would change something, and what they would change (the refusal names it) */
const REFUSED = {
  setSessionTitle: "rename a session",
  importSessions: "import sessions",
  importFromDialog: "import sessions",
  importGitRepository: "import sessions",
  findGitRepositories: "import sessions",
  beginUpload: "take uploads",
  uploadChunk: "take uploads",
  cancelUpload: "take uploads",
  cancelImport: "import sessions",
  saveSessionAs: "save files on its host (use Export)",
  continueInPi: "write into a pi folder on its host (export the session as pi and continue it on your machine)",
  deleteSession: "delete sessions",
  compact: "compact a session",
  commitCompaction: "compact a session",
  abort: "run work that could be aborted",
  navigate: "move a session's leaf",
  applyPrune: "prune a session",
  restorePruned: "restore pruned output",
  prompt: "continue a session with a model",
  undo: "undo changes",
  redo: "redo changes",
  setLabel: "label entries",
  setSettings: "change settings",
  pickSettingsFolder: "choose host folders",
  setApiKey: "keep a model key",
  clearApiKey: "keep a model key",
  testConnection: "call a model",
} as const satisfies Partial<Record<MethodName, string>>;

type RefusedName = keyof typeof REFUSED;

/** The one-line refusal of a call that a read-only archive does not take. */
export function archiveRefusal(method: RefusedName): IpcError {
  return new IpcError("forbidden", `a team archive is read-only: it cannot ${REFUSED[method]}`);
}

const AGENTS = new Set<SessionSummaryDto["agent"]>(["pi", "omp", "claude-code", "codex"]);

/** An archived session as the session list shows it (the counts the list does not know are left out or pending). */
export function archivedSummary(s: ArchivedSession): SessionSummaryDto {
  return {
    id: s.key,
    title: s.title ?? "",
    cwd: s.cwd,
    createdAt: s.startedAt ?? s.pushedAt,
    updatedAt: s.pushedAt,
    entryCount: s.entryCount,
    leafId: null,
    sourcePath: null,
    agent: AGENTS.has(s.agent as SessionSummaryDto["agent"]) ? (s.agent as SessionSummaryDto["agent"]) : "pi",
    compactionCount: 0,
    readOnly: ARCHIVE_READ_ONLY,
    parentSession: null,
    customTitle: false,
    branches: null,
    contextTokens: null,
    estimatedTokens: null,
    archive: { project: s.project, pushedBy: s.pushedBy, pushedAt: s.pushedAt },
  };
}

/**
 * The settings the page replays what-if and plans with: the defaults of the server's cache, with
 * nothing of the server's folders (its cache folder, its database file) in them.
 */
export function pageSettings(state: MethodOutput<"getSettings">): MethodOutput<"getSettings"> {
  return {
    ...state,
    settings: { ...state.settings, hooksDir: "", sessionDirs: [] },
    hostSettings: { ...state.hostSettings, command: "the settings of a team archive do not change from the page", database: "" },
  };
}

/** The app's open of the session `row` names, from the cache's copy, as the page gets it (the caller holds the copy). */
export async function openAnswerFromCopy(app: Pick<Handlers, "openSession">, row: HeldSession): Promise<MethodOutput<"openSession">> {
  const { session, skeleton } = await app.openSession({ sessionId: row.storeId });
  const archive = { project: row.project, pushedBy: row.pushedBy, pushedAt: row.pushedAt };
  // the cache's file path is this server's business, not the page's; the page names the session by its key
  return { session: { ...session, id: row.key, sourcePath: null, readOnly: ARCHIVE_READ_ONLY, archive }, skeleton: { ...skeleton, sessionId: row.key } };
}

export interface ArchiveHandlerDeps {
  pool: pg.Pool;
  /** the app's handlers over the cache store (never reached before the caller's check) */
  backend: Pick<Backend, "handlers">;
  cache: ArchiveSessionCache;
  /** the page's open: from the copy, or the answer PostgreSQL keeps while the copy is made */
  opener: PageOpener;
  version: string;
  /** how many sessions a page of the session list holds when the page does not say */
  listPage: number;
  /** the exports, downloadable from any process (their download answers only the person's token) */
  exports: ExportDownloads;
  /** the rewritten snippet of a search hit (the contract's [[match]] marks) */
  snippets: (query: string) => (snippet: string) => string;
  /** how the amnesia report over many sessions scores a session (default: in this thread) */
  amnesiaScore?: AmnesiaScore;
}

/** The handlers for one page signed in with `token`. */
export function archiveHandlers(deps: ArchiveHandlerDeps, token: string): Handlers {
  const { pool, cache } = deps;
  const app = deps.backend.handlers;
  /** the caller's read path, once the token is checked again */
  const who = async (): Promise<ArchiveStore> => new ArchiveStore(pool, await authenticate(pool, token));

  /** a read of one session, once the caller may read it and the cache holds its current copy */
  const onSession =
    <M extends MethodName>(method: M) =>
    async (input: { sessionId: string }): Promise<MethodOutput<M>> => {
      const archive = await who();
      const handler = app[method] as unknown as (input: unknown) => Promise<MethodOutput<M>> | MethodOutput<M>;
      return cache.withSession(archive, input.sessionId, async (held) => keyedAnswer(await handler({ ...input, sessionId: held.storeId }), keysOf([held])));
    };

  /**
   * A single-entry read: from PostgreSQL while this process holds no current copy of the session
   * (`direct` answers null when only the copy can answer), else the app's own over the copy.
   */
  const fromArchiveOrCopy =
    <M extends "getEntry" | "getPreviews", I extends { sessionId: string }>(method: M, direct: (archive: ArchiveStore, row: ArchivedSessionRow, input: I) => Promise<MethodOutput<M> | null>) =>
    async (input: I): Promise<MethodOutput<M>> => {
      const archive = await who();
      const row = await archive.session(input.sessionId);
      const answer = cache.heldCopy(row) ? null : await direct(archive, row, input);
      if (answer !== null) return answer;
      const handler = app[method] as unknown as (input: I) => Promise<MethodOutput<M>> | MethodOutput<M>;
      return cache.withSession(archive, row.key, async (held) => keyedAnswer(await handler({ ...input, sessionId: held.storeId }), keysOf([held])));
    };

  const refused = Object.fromEntries(
    Object.keys(REFUSED).map((name) => [
      name,
      async () => {
        await who();
        throw archiveRefusal(name as RefusedName);
      },
    ]),
  ) as unknown as Pick<Handlers, RefusedName>;

  return {
    ...refused,
    getAppInfo: async () => {
      const reader = await who();
      const principal = reader.principal;
      const projects = await pool.query<{ name: string }>("SELECT name FROM projects WHERE id = ANY($1::bigint[]) ORDER BY name", [principal.projectIds]);
      const archive = { user: principal.name, role: principal.role, projects: projects.rows.map((r) => r.name), people: await reader.pushers() };
      return { mode: "browser", version: deps.version, dataDir: "", nativeDialogs: false, archive, readOnly: HOST_READ_ONLY };
    },
    listSessions: async (input) => {
      const page = await (await who()).listPage({ limit: deps.listPage, ...input });
      return { sessions: page.sessions.map(archivedSummary), next: page.next };
    },
    findSessionFolders: async () => {
      await who();
      return { folders: [] };
    },
    // the commit links pushed with sessions imported from a checkpoint branch
    getSessionCommits: async ({ sessionId }) => {
      // a session the caller may not read is refused as any read of it
      return { commits: await (await who()).commits(sessionId) };
    },
    getCommitCounts: async () => {
      return { counts: Object.fromEntries(await (await who()).commitCounts()) };
    },
    searchSessions: async ({ query, sessionId, limit }) => {
      // within one session: the one the page's name names (a name the caller may not read finds nothing)
      const hits = await (await who()).searchHits(query, { ...(limit !== undefined ? { limit } : {}), ...(sessionId !== undefined ? { session: sessionId } : {}) });
      const snippet = deps.snippets(query);
      return {
        unindexed: 0,
        hits: hits.map((h) => ({ sessionId: h.key, sessionTitle: h.sessionTitle ?? h.sessionId, entryId: h.entryId, type: h.type, role: h.role, timestamp: h.timestamp, snippet: snippet(h.snippet), archive: { project: h.project, pushedBy: h.pushedBy } })),
      };
    },
    openSession: async (input) => deps.opener.open((await who()).principal, input.sessionId),
    getSkeleton: onSession("getSkeleton"),
    getPreviews: fromArchiveOrCopy("getPreviews", async (archive, row, input: { sessionId: string; entryIds: string[] }) => ({ previews: await archive.previews(row, input.entryIds) })),
    getSkeletonTail: onSession("getSkeletonTail"),
    getEntry: fromArchiveOrCopy("getEntry", (archive, row, input: { sessionId: string; entryId: string }) => archive.entryDetail(row, input.entryId)),
    getEntries: onSession("getEntries"),
    getContextPreview: onSession("getContextPreview"),
    getUsagePoints: onSession("getUsagePoints"),
    planCompaction: onSession("planCompaction"),
    planPrune: onSession("planPrune"),
    getAmnesiaReport: onSession("getAmnesiaReport"),
    getAmnesiaScores: onSession("getAmnesiaScores"),
    getSummaryCheck: onSession("getSummaryCheck"),
    // over the sessions the caller may read, straight from PostgreSQL (archive-amnesia.ts), never the cache; each named by its key
    getAmnesiaOverview: async ({ project }) => (await who()).amnesiaOverview(project === undefined ? {} : { project }, deps.amnesiaScore),
    exportSession: async (input) => deps.exports.export((await who()).principal, input),
    whatIf: async (input) => cache.withSessions(await who(), input.sessionIds, async (held) => keyedAnswer(await app.whatIf({ ...input, sessionIds: held.map((r) => r.storeId) }), keysOf(held))),
    getUndo: async () => {
      await who();
      return { undo: null, redo: null };
    },
    getSettings: async () => {
      await who();
      return pageSettings(await app.getSettings({}));
    },
  };
}
