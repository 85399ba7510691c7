/**
 * createBackend: the store and the engine bound to the @bonsai/ipc contract. The same object serves
 * Electron (ipcMain) and browser mode (startServer): `dispatch` validates and runs a call, `onEvent`
 * feeds the pushed events. Handlers are thin; the store and the engine do the work.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createEngine, type Engine, type CreateEngineOptions } from "@bonsai/engine";
import { createDispatcher, type Dispatch, type EventName, type EventPayload, type EventSink, type Handlers } from "@bonsai/ipc";
import {
  openStore,
  InlineStoreJobs,
  WorkerStoreJobs,
  storeWorkerUrl,
  hostStore,
  sessionsByCommitOrFile,
  NewerDatabaseError,
  DB_FILE_NAME,
  writeThroughFromEnv,
  type SessionStore,
  type SqliteSessionStore,
  type StoreJobs,
} from "@bonsai/store";
import { Downloads, type PreparedDownload } from "./downloads";
import { engineHandlers, RequestTracker } from "./engine-handlers";
import { mapBackendError } from "./error-mapping";
import { exportHandlers } from "./export-handlers";
import { foreignHandlers } from "./foreign-handlers";
import type { HostDialogs } from "./dialogs";
import { hostSettingsInfo } from "./host-policy";
import { importHandlers } from "./import-handlers";
import { gitImportHandlers } from "./git-import-handlers";
import { fileKeyProvider, resolveApiKey, type KeyProvider } from "./keys";
import { sessionHandlers, toSummary } from "./session-handlers";
import { prepareSkeletons, readSkeletonAhead } from "./skeleton-reads";
import { forwardEngineEvents, forwardStoreEvents } from "./event-bridge";
import { whatIfHandlers, WhatIfCaches } from "./whatif-handlers";
import { Uploads } from "./uploads";
import { sessionFolders } from "./session-folders";
import { SessionStats } from "./session-stats";
import { UndoLog, undoHandlers } from "./undo";
import { LastOpened } from "./last-opened";
import { waitingForSessionWriters } from "./session-write-wait";

/** how long after its start the backend starts its store worker (unless a job needs it sooner) */
export const WORKER_WARM_UP_MS = 250;

export interface BackendOptions {
  /** Bonsai's data folder (database, uploads, api-key file, hooks) */
  dataDir: string;
  /** default: BONSAI_DB of `env` when set (as the CLI and defaultDbPath do), else <dataDir>/bonsai.db */
  dbPath?: string;
  /** better_sqlite3.node built for the host's ABI (Electron passes its own build) */
  nativeBinding?: string;
  /** where setApiKey stores the key: Electron's safeStorage keychain; default a 0600 file in dataDir */
  keyProvider?: KeyProvider;
  mode?: "electron" | "browser";
  version?: string;
  /**
   * The desktop app's native dialogs (its main process): import, export and folder settings go
   * through them. Absent in browser mode: uploads, downloads, host settings read-only.
   */
  dialogs?: HostDialogs;
  /** the engine's compaction worker pool (the bundled compaction-worker.mjs; the store's worker entry, store-worker.mjs, is beside it) */
  worker?: { url: URL; size?: number };
  /** engine options for tests and the CLI (summarizer factory, overrides, offline) */
  engine?: Pick<CreateEngineOptions, "summarizerFactory" | "settings" | "offline" | "hooks" | "pruneConfig">;
  env?: NodeJS.ProcessEnv;
  /** errors that became "internal" (a bug) and failing event listeners: log them */
  onInternalError?: (err: unknown, where: string) => void;
}

export interface Backend {
  dispatch: Dispatch;
  handlers: Handlers;
  store: SessionStore;
  engine: Engine;
  dataDir: string;
  dbPath: string;
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  /** the API key for the host's own use (never sent to the renderer) */
  apiKey(): string | null;
  /** a prepared export (exportSession's url), once; the server streams the file, then calls done() */
  takeDownload(id: string): (PreparedDownload & { done: () => void }) | undefined;
  close(): Promise<void>;
}

/** BONSAI_DB when set (the CLI's and defaultDbPath's rule), else <dataDir>/bonsai.db. */
export function backendDbPath(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const override = env.BONSAI_DB;
  return override && override.trim() !== "" ? path.resolve(override) : path.join(path.resolve(dataDir), DB_FILE_NAME);
}

export function createBackend(options: BackendOptions): Backend {
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const env = options.env ?? process.env;
  const dbPath = path.resolve(options.dbPath ?? backendDbPath(dataDir, env));
  const keys = options.keyProvider ?? fileKeyProvider(dataDir);

  let store: SqliteSessionStore;
  const writeThrough = writeThroughFromEnv(env);
  try {
    fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    store = openStore({ path: dbPath, nativeBinding: options.nativeBinding, writeThrough });
  } catch (err) {
    if (err instanceof NewerDatabaseError) throw err;
    throw new Error(`cannot open the database ${dbPath}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }

  // imports, followed files, exports and rewrites: on the store's worker (its entry beside the
  // engine's bundled worker) when the host has one, so that the main thread keeps answering
  const jobs: StoreJobs = options.worker
    ? new WorkerStoreJobs({ url: storeWorkerUrl(options.worker.url), dbPath, nativeBinding: options.nativeBinding, writeThrough, relay: (event, payload) => store.relay(event, payload) })
    : new InlineStoreJobs(store);
  // what the handlers and the engine hold: the host's store, its bulk work run as those jobs
  const host = hostStore(store, jobs);
  // the worker starts (its code loaded, the database opened: ~50 ms of CPU) a moment after the
  // backend, once its first answers are out, or with its first job if that comes sooner; not on the
  // first open of a session
  // Once ready, it indexes for search what no process indexed yet (sessions `bonsai import` stored:
  // the CLI does not index): in its own thread, a batch at a time, waiting while a tree draws.
  const warmUp = setTimeout(() => {
    host
      .prepare()
      .then(() => host.index())
      .catch(() => undefined); // a store that cannot be opened fails the first real job too
  }, WORKER_WARM_UP_MS);
  warmUp.unref();

  const engine = createEngine({
    ...options.engine,
    store: host,
    dataDir,
    env,
    apiKeyProvider: (model) => resolveApiKey(keys, model.apiKeyEnv, env).key ?? undefined,
    worker: options.worker ? { url: options.worker.url, size: options.worker.size, dbPath, nativeBinding: options.nativeBinding } : undefined,
  });

  const listeners = new Set<(event: string, payload: unknown) => void>();
  const emit: EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => {
    for (const l of listeners) {
      try {
        l(event, payload);
      } catch (err) {
        options.onInternalError?.(err, `a listener of the ${event} event`);
      }
    }
  };

  // one planner: the engine's (its worker pool when the host has a worker), closed with the engine
  const planner = engine.planner;
  const lastOpened = new LastOpened(dataDir);
  // The first time a window lists the sessions (a user is about to pick one, and the first open of
  // the day is usually the session opened last), that session's skeleton is read ahead by a store
  // job: not at start, where nobody may be looking and its CPU would be spent for nothing.
  let readAhead = false;
  const listed = () => {
    if (readAhead) return;
    readAhead = true;
    const last = lastOpened.read();
    if (last === null || !store.getSession(last)) return;
    // after the listing's answer is out; a read that fails (the session removed meanwhile) is the open's to report
    setImmediate(() => {
      if (!closed) readSkeletonAhead(host, last).catch(() => undefined);
    });
  };
  const uploads = new Uploads(dataDir);
  const downloads = new Downloads(dataDir);
  const hostSettings = hostSettingsInfo(dataDir, dbPath);
  const stats = new SessionStats(store, () => emit("sessionsChanged", {}));
  const folders = sessionFolders(() => engine.reloadSettings().sessionDirs, env);
  const requests = new RequestTracker();
  const undos = new UndoLog(store);
  let follower: { close(): void } | null = null;
  const followed = new Set<string>();
  const follow = (sessionId: string) => {
    if (followed.has(sessionId)) return;
    followed.add(sessionId);
    if (followed.size > 16) followed.delete(followed.values().next().value as string);
    follower?.close();
    follower = store.follow({ sessionIds: [...followed], sync: (target) => host.sync(target) });
    // the follower sees changes from now on: what the agent wrote while no Bonsai process was looking is read now
    const opened = store.getSession(sessionId);
    if (opened?.sourcePath && opened.detached === null) host.sync({ sessionId, file: opened.sourcePath });
  };

  const offStore = forwardStoreEvents(store, emit);
  const whatIfCaches = new WhatIfCaches();
  const offWhatIf = whatIfCaches.follow(store);
  const offEngine = forwardEngineEvents(engine, emit, requests);
  void engine.loadUserHooks().catch((err: unknown) => emit("hookError", { hook: "load", file: null, message: err instanceof Error ? err.message : String(err) }));

  /** a session's title for import results */
  const titleOf = (sessionId: string): string | null => {
    const s = store.getSession(sessionId);
    return s ? toSummary(s, store.getSessionTitles().get(s.id)).title : null;
  };
  /** running imports by requestId (cancelImport stops file and git imports alike) */
  const runningImports = new Map<string, AbortController>();
  const handlers: Handlers = {
    getAppInfo: () => ({
      mode: options.mode ?? "browser",
      version: options.version ?? "0.0.0",
      dataDir,
      nativeDialogs: options.dialogs !== undefined,
    }),
    ...sessionHandlers({ store: host, emit, settings: () => engine.reloadSettings(), stats, folders: () => folders, undos, follow, opened: (id) => lastOpened.note(id), listed, commitMatches: (query) => sessionsByCommitOrFile(store.db, query) }),
    ...importHandlers({
      store: host,
      emit,
      uploads,
      env,
      running: runningImports,
      dialogs: options.dialogs,
      hostCommands: { config: hostSettings.command, import: hostSettings.importCommand },
      sessionDirs: () => engine.reloadSettings().sessionDirs,
      title: titleOf,
      imported: (results) => prepareSkeletons(host, results),
    }),
    ...gitImportHandlers({
      store: host,
      db: store.db,
      emit,
      env,
      uploadsDir: uploads.dir,
      dataDir,
      running: runningImports,
      dialogs: options.dialogs,
      sessionDirs: () => engine.reloadSettings().sessionDirs,
      sessionFolders: () => folders.found().map((f) => f.path),
      title: titleOf,
      imported: (results) => prepareSkeletons(host, results),
    }),
    ...exportHandlers({ store: host, downloads, dialogs: options.dialogs }),
    ...foreignHandlers({ store: host, emit, env }),
    ...engineHandlers({ store: host, engine, keys, emit, env, requests, planner, dialogs: options.dialogs, hostSettings, undos }),
    ...whatIfHandlers({ store, planner, caches: whatIfCaches, settings: () => engine.getSettings() }),
    ...undoHandlers({ store, jobs, undos, prune: (sessionId) => engine.pruneToolOutputs(sessionId) }),
  };

  const dispatch = createDispatcher(waitingForSessionWriters(handlers, store), { mapError: mapBackendError, onInternalError: options.onInternalError });

  let closed = false;
  return {
    dispatch,
    handlers,
    store,
    engine,
    dataDir,
    dbPath,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    apiKey: () => resolveApiKey(keys, engine.getSettings().model.apiKeyEnv, env).key,
    takeDownload: (id) => downloads.take(id),
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(warmUp);
      follower?.close();
      uploads.close();
      downloads.close();
      offStore();
      offWhatIf();
      offEngine();
      engine.abortCompaction();
      engine.abortBranchSummary();
      await engine.close();
      await jobs.close();
      store.close();
      listeners.clear();
    },
  };
}
