/** The session list and imports. */
import { IpcError, type EventPayload, type ImportResult, type SessionSummaryDto } from "@bonsai/ipc";
import { api, errorMessage, failureSentence, isUnavailable } from "../lib/api";
import { UploadCancelled, uploadFiles } from "../lib/upload";
import type { Slice } from "./types";

export interface ImportProgress {
  requestId: string;
  /** uploading: the files travel to the backend (cancellable); importing: the backend reads them */
  phase: "uploading" | "importing";
  source: string;
  fileIndex: number;
  fileCount: number;
  /** bytes done and their total (0 when unknown) */
  done: number;
  total: number;
}

/** On a team archive: what the session list is narrowed to, in the archive ("" or absent: any). */
export interface SessionQuery {
  project?: string;
  pushedBy?: string;
  text?: string;
}

export interface SessionsSlice {
  sessions: SessionSummaryDto[];
  /** on a team archive: the position after the last loaded session (null: every session is loaded) */
  sessionsNext: string | null;
  /** on a team archive: the filters the archive applies to the list */
  sessionQuery: SessionQuery;
  /** the filters the loaded list was read with (sessionQuery once its list arrived) */
  listedQuery: SessionQuery;
  /** a next page of the list is being read */
  loadingMoreSessions: boolean;
  /** narrow the list in the archive; it is read again from its first page */
  setSessionQuery(query: SessionQuery): Promise<void>;
  /** the next page of the list (a team archive); nothing when every session is loaded */
  loadMoreSessions(): Promise<void>;
  sessionsLoaded: boolean;
  /** why the list could not be loaded (null when it was) */
  sessionsError: string | null;
  /** the running import, null when idle */
  importProgress: ImportProgress | null;
  /** results of the last import (shown until dismissed) */
  lastImport: ImportResult[] | null;
  refreshSessions(): Promise<void>;
  /** import picked or dropped files: uploaded in chunks (works in the browser and in Electron), then imported */
  importFiles(files: readonly File[]): Promise<ImportResult[]>;
  /** the desktop app: the files chosen in the main process's open dialog */
  importFromDialog(): Promise<ImportResult[]>;
  /**
   * stop the running import: an upload (its bytes are deleted on the backend; nothing is imported),
   * or the backend's reading of the files (the file being read is left out whole, later ones are not read)
   */
  cancelImport(): void;
  /**
   * import files and folders in place by their paths (the agents' session folders found on this
   * machine, or files dropped on the desktop window); `whenForbidden`: what to do instead when the
   * backend refuses a path outside the folders it allows (otherwise the refusal is shown)
   */
  importFolders(paths: readonly string[], whenForbidden?: () => Promise<ImportResult[]>): Promise<ImportResult[]>;
  onImportProgress(p: EventPayload<"importProgress">): void;
  dismissImport(): void;
  /** give a session a title in Bonsai (null or "" goes back to the file's); resolves with an error message or null */
  renameSession(sessionId: string, title: string | null): Promise<string | null>;
  /** remove a session from Bonsai (the agent's file is kept) */
  removeSession(sessionId: string): Promise<void>;
}

/** the filters that are set, as listSessions takes them */
function listInput(query: SessionQuery): SessionQuery {
  const input: SessionQuery = {};
  if (query.project) input.project = query.project;
  if (query.pushedBy) input.pushedBy = query.pushedBy;
  if (query.text?.trim()) input.text = query.text.trim();
  return input;
}

let importCounter = 0;
let uploading: AbortController | null = null;
/** the request of a dialog import: its progress shows once the dialog closed and files are read */
let dialogRequest: string | null = null;

export const createSessionsSlice: Slice<SessionsSlice> = (set, get) => {
  const begin = (phase: ImportProgress["phase"], source: string, fileCount: number, requestId = `import-${++importCounter}`, total = 0): ImportProgress => {
    const progress: ImportProgress = { requestId, phase, source, fileIndex: 0, fileCount, done: 0, total };
    set({ importProgress: progress, lastImport: null });
    return progress;
  };
  const finish = async (results: ImportResult[]) => {
    set({ lastImport: results });
    await get().refreshSessions();
    return results;
  };

  return {
    sessions: [],
    sessionsNext: null,
    sessionQuery: {},
    listedQuery: {},
    loadingMoreSessions: false,
    sessionsLoaded: false,
    sessionsError: null,
    importProgress: null,
    lastImport: null,

    async refreshSessions() {
      try {
        const query = get().sessionQuery;
        const { sessions, next } = await api().listSessions(listInput(query));
        // an answer to filters changed meanwhile is not shown
        if (get().sessionQuery !== query) return;
        // the open session's summary (title, counts) follows the list
        const open = get().openSessionId;
        const session = open ? sessions.find((x) => x.id === open) : undefined;
        set({ sessions, sessionsNext: next ?? null, listedQuery: query, sessionsLoaded: true, sessionsError: null, ...(session ? { session } : {}) });
      } catch (err) {
        set({ sessionsError: errorMessage(err) });
        // a lost connection is shown in the header already
        if (!isUnavailable(err)) get().notify("error", failureSentence(err, "the session list could not be read"));
      }
    },

    async setSessionQuery(query) {
      set({ sessionQuery: query, sessionsNext: null });
      await get().refreshSessions();
    },

    async loadMoreSessions() {
      const { sessionsNext: after, sessionQuery: query, loadingMoreSessions } = get();
      if (after === null || loadingMoreSessions) return;
      set({ loadingMoreSessions: true });
      try {
        const { sessions, next } = await api().listSessions({ ...listInput(query), after });
        if (get().sessionQuery !== query || get().sessionsNext !== after) return;
        set((s) => {
          const known = new Set(s.sessions.map((x) => x.id));
          return { sessions: [...s.sessions, ...sessions.filter((x) => !known.has(x.id))], sessionsNext: next ?? null };
        });
      } catch (err) {
        get().notify("error", failureSentence(err, "more sessions could not be read"));
      } finally {
        set({ loadingMoreSessions: false });
      }
    },

    async importFiles(files) {
      const picked = files.filter((f) => f.size > 0 || f.name.endsWith(".jsonl"));
      if (picked.length === 0 || get().importProgress) return [];
      const total = picked.reduce((n, f) => n + f.size, 0);
      const { requestId } = begin("uploading", picked[0]!.name, picked.length, undefined, total);
      const controller = new AbortController();
      uploading = controller;
      try {
        const uploads = await uploadFiles(
          api(),
          picked,
          (p) => set({ importProgress: { requestId, phase: "uploading", source: p.name, fileIndex: p.fileIndex, fileCount: p.fileCount, done: p.sent, total: p.total } }),
          controller.signal,
        );
        uploading = null;
        set({ importProgress: { requestId, phase: "importing", source: picked[0]!.name, fileIndex: 0, fileCount: picked.length, done: 0, total: 0 } });
        const { results } = await api().importSessions({ uploads, requestId });
        return await finish(results);
      } catch (err) {
        if (err instanceof UploadCancelled) get().notify("info", "Upload cancelled: nothing was imported.");
        else get().notify("error", `Import failed: ${errorMessage(err)}`);
        return [];
      } finally {
        if (uploading === controller) uploading = null;
        set({ importProgress: null });
      }
    },

    async importFromDialog() {
      if (get().importProgress || dialogRequest) return [];
      const requestId = `import-${++importCounter}`;
      dialogRequest = requestId;
      try {
        const { cancelled, results } = await api().importFromDialog({ requestId });
        return cancelled ? [] : await finish(results);
      } catch (err) {
        get().notify("error", `Import failed: ${errorMessage(err)}`);
        return [];
      } finally {
        dialogRequest = null;
        set({ importProgress: null });
      }
    },

    cancelImport() {
      if (uploading) {
        uploading.abort();
        return;
      }
      const current = get().importProgress;
      if (current?.phase === "importing") void api().cancelImport({ requestId: current.requestId }).catch(() => undefined);
    },

    async importFolders(paths, whenForbidden) {
      if (paths.length === 0 || get().importProgress) return [];
      const { requestId } = begin("importing", paths[0]!, paths.length);
      let results: ImportResult[];
      try {
        ({ results } = await api().importSessions({ paths: [...paths], requestId }));
      } catch (err) {
        set({ importProgress: null });
        if (whenForbidden && err instanceof IpcError && err.code === "forbidden") return whenForbidden();
        get().notify("error", failureSentence(err, "nothing was imported"));
        return [];
      }
      set({ importProgress: null });
      return finish(results);
    },

    async renameSession(sessionId, title) {
      try {
        const { session } = await api().setSessionTitle({ sessionId, title });
        set((s) => ({ sessions: s.sessions.map((x) => (x.id === sessionId ? session : x)), session: s.openSessionId === sessionId ? session : s.session }));
        return null;
      } catch (err) {
        return errorMessage(err);
      }
    },

    async removeSession(sessionId) {
      try {
        const title = get().sessions.find((s) => s.id === sessionId)?.title ?? sessionId;
        await api().deleteSession({ sessionId });
        if (get().openSessionId === sessionId) get().closeSession();
        set((s) => ({ sessions: s.sessions.filter((x) => x.id !== sessionId) }));
        get().notify("info", `“${title}” was removed from Bonsai; the agent's session file is kept.`);
      } catch (err) {
        get().notify("error", failureSentence(err, "the session was not removed"));
      }
    },

    onImportProgress(p) {
      const current = get().importProgress ?? (dialogRequest !== null && p.requestId === dialogRequest ? begin("importing", p.source, p.fileCount, dialogRequest) : null);
      if (!current || current.phase !== "importing" || (p.requestId !== null && p.requestId !== current.requestId)) return;
      set({ importProgress: { ...current, source: p.source, fileIndex: p.fileIndex, fileCount: p.fileCount, done: p.done, total: p.total } });
    },

    dismissImport() {
      set({ lastImport: null });
    },
  };
};
