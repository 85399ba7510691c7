/**
 * "Import from a Git Repository…": a repository's Entire checkpoints (store src/entire/), read
 * through git without changing it, the transcripts imported by the store jobs (on the store worker
 * in the app and `bonsai serve`) like any file. Which repository: the desktop app's folder picker
 * (main process), one findGitRepositories offered (found by the backend itself in the stored
 * sessions' working folders), or a path inside the session folders (the same rule as
 * importSessions). Progress goes out as importProgress events (one item per session) and
 * cancelImport stops between sessions.
 */
import { IpcError, type EventSink, type Handlers, type ImportResult } from "@bonsai/ipc";
import { commitsBySession, commitsOfSession, GitReadError, hasCheckpointBranch, importGitRepository, type GitImportResult, type GitImportTarget, type HostStore, type ImportReport } from "@bonsai/store";
import type { HostDialogs } from "./dialogs";
import { importRoots, isAllowedImportPath } from "./import-roots";
import { isImported, refusedResult, toImportResult } from "./import-results";
import { sessionFileCwds } from "./session-cwds";

type Names = "importGitRepository" | "findGitRepositories" | "getSessionCommits" | "getCommitCounts";

export interface GitImportHandlerDeps {
  store: HostStore;
  /** the store's own connection: the checkpoints read and the commit links written */
  db: GitImportTarget["db"];
  emit: EventSink;
  env: NodeJS.ProcessEnv;
  uploadsDir: string;
  sessionDirs: () => readonly string[];
  /** the agents' session folders found on this machine (whose files' working folders are looked at) */
  sessionFolders: () => readonly string[];
  dialogs?: HostDialogs;
  /** where the transcript copies go (the data folder) */
  dataDir: string;
  /** the running imports by requestId: cancelImport aborts them too */
  running: Map<string, AbortController>;
  title: (sessionId: string) => string | null;
  imported: (results: readonly ImportResult[], reports: readonly ImportReport[]) => void;
}

/**
 * The working folders of the stored sessions and of the session files in the agents' folders that
 * are git repositories with a checkpoint branch, with how many sessions name each.
 */
export function gitRepositoriesOfSessions(store: Pick<HostStore, "listSessions">, sessionFolders: readonly string[]): { path: string; sessions: number }[] {
  const counts = sessionFileCwds(sessionFolders);
  const stored = new Map<string, number>();
  for (const s of store.listSessions()) if (s.cwd) stored.set(s.cwd, (stored.get(s.cwd) ?? 0) + 1);
  // stored sessions whose files are not in the agents' folders (imported from elsewhere)
  for (const [cwd, n] of stored) if (!counts.has(cwd)) counts.set(cwd, n);
  return [...counts]
    .filter(([cwd]) => hasCheckpointBranch(cwd))
    .map(([path, sessions]) => ({ path, sessions }))
    .sort((a, b) => b.sessions - a.sessions || a.path.localeCompare(b.path));
}

export function gitImportHandlers(deps: GitImportHandlerDeps): Pick<Handlers, Names> {
  const { store, emit } = deps;

  /** which repository: the picker, an offered one, or one inside the session folders */
  const repositoryOf = async (given: string | undefined): Promise<string | null> => {
    if (given === undefined) {
      if (!deps.dialogs) throw new IpcError("unavailable", "browser mode has no folder picker: give the path of a repository inside the session folders");
      return deps.dialogs.chooseGitRepository();
    }
    if (gitRepositoriesOfSessions(store, deps.sessionFolders()).some((r) => r.path === given)) return given;
    if (!isAllowedImportPath(given, importRoots(deps.sessionDirs(), deps.env, deps.uploadsDir))) {
      throw new IpcError("forbidden", `${given} is outside the session folders: add its folder in Preferences (or run \`bonsai import --git ${given}\` on the host)`);
    }
    return given;
  };

  return {
    importGitRepository: async ({ path: given, requestId }) => {
      // cancellable from the start (a cancel may come while the picker or the checks run)
      const cancel = new AbortController();
      if (requestId !== undefined) deps.running.set(requestId, cancel);
      let result: GitImportResult;
      try {
        const repository = await repositoryOf(given);
        if (repository === null) return { cancelled: true, repository: null, checkpointsRead: 0, checkpointsTotal: 0, commitsLinked: 0, results: [] };
        result = await importGitRepository(
          { db: deps.db, importFile: (file, options) => store.importFile(file, options ?? {}) },
          repository,
          {
            dataDir: deps.dataDir,
            signal: cancel.signal,
            onProgress: (p) => {
              if (p.phase !== "transcripts") return;
              // one item per session; no byte figures (the sessions are read whole)
              emit("importProgress", { requestId: requestId ?? null, source: repository, fileIndex: Math.min(p.done, Math.max(0, p.total - 1)), fileCount: p.total, done: 0, total: 0, finished: p.done === p.total });
            },
          },
        );
      } catch (err) {
        if (err instanceof GitReadError) throw new IpcError("invalid_payload", err.message);
        throw err;
      } finally {
        if (requestId !== undefined && deps.running.get(requestId) === cancel) deps.running.delete(requestId);
      }
      const reports = result.sessions.map((s) => s.report);
      const results = result.sessions.map((s) => {
        const source = `${s.transcript} (${s.agent ?? "unknown agent"})`;
        return s.report.status === "not-a-session" ? refusedResult(source, "not a session of an agent Bonsai reads") : toImportResult(source, s.report, s.report.sessionId && isImported(s.report) ? deps.title(s.report.sessionId) : null);
      });
      deps.imported(results, reports);
      return { cancelled: result.aborted, repository: result.repository, checkpointsRead: result.checkpointsRead, checkpointsTotal: result.checkpointsTotal, commitsLinked: result.commitsLinked, results };
    },

    findGitRepositories: () => ({ repositories: gitRepositoriesOfSessions(store, deps.sessionFolders()) }),

    getSessionCommits: ({ sessionId }) => {
      if (!store.getSession(sessionId)) throw new IpcError("not_found", `no session ${sessionId}`);
      return { commits: commitsOfSession(deps.db, sessionId) };
    },

    getCommitCounts: () => ({ counts: Object.fromEntries([...commitsBySession(deps.db)].map(([id, commits]) => [id, commits.length])) }),
  };
}
