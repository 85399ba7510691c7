/** The session list and imports. */
import type { EventPayload, ImportResult, SessionSummary } from "@bonsai/ipc";
import { api, errorMessage, isUnavailable } from "../lib/api";
import type { Slice } from "./types";

export interface ImportProgress {
  requestId: string;
  source: string;
  fileIndex: number;
  fileCount: number;
  done: number;
  total: number;
}

export interface SessionsSlice {
  sessions: SessionSummary[];
  sessionsLoaded: boolean;
  /** why the list could not be loaded (null when it was) */
  sessionsError: string | null;
  /** the running import, null when idle */
  importProgress: ImportProgress | null;
  /** results of the last import (shown until dismissed) */
  lastImport: ImportResult[] | null;
  refreshSessions(): Promise<void>;
  /** import picked or dropped files (contents are read here: works in the browser and in Electron) */
  importFiles(files: readonly File[]): Promise<ImportResult[]>;
  /** import by path (Electron's native picker) */
  importPaths(paths: readonly string[]): Promise<ImportResult[]>;
  onImportProgress(p: EventPayload<"importProgress">): void;
  dismissImport(): void;
}

let importCounter = 0;

export const createSessionsSlice: Slice<SessionsSlice> = (set, get) => {
  const runImport = async (input: { paths?: string[]; files?: { name: string; content: string }[] }, first: string, count: number) => {
    const requestId = `import-${++importCounter}`;
    set({ importProgress: { requestId, source: first, fileIndex: 0, fileCount: count, done: 0, total: 0 }, lastImport: null });
    try {
      const { results } = await api().importSessions({ ...input, requestId });
      set({ lastImport: results });
      await get().refreshSessions();
      return results;
    } catch (err) {
      get().notify("error", `Import failed: ${errorMessage(err)}`);
      return [];
    } finally {
      set({ importProgress: null });
    }
  };

  return {
    sessions: [],
    sessionsLoaded: false,
    sessionsError: null,
    importProgress: null,
    lastImport: null,

    async refreshSessions() {
      try {
        const { sessions } = await api().listSessions();
        set({ sessions, sessionsLoaded: true, sessionsError: null });
      } catch (err) {
        set({ sessionsError: errorMessage(err) });
        // a lost connection is shown in the header already
        if (!isUnavailable(err)) get().notify("error", `Could not list sessions: ${errorMessage(err)}`);
      }
    },

    async importFiles(files) {
      const picked = files.filter((f) => f.size > 0 || f.name.endsWith(".jsonl"));
      if (picked.length === 0) return [];
      const contents = await Promise.all(picked.map(async (f) => ({ name: f.name, content: await f.text() })));
      return runImport({ files: contents }, picked[0]!.name, picked.length);
    },

    async importPaths(paths) {
      if (paths.length === 0) return [];
      return runImport({ paths: [...paths] }, paths[0]!, paths.length);
    },

    onImportProgress(p) {
      const current = get().importProgress;
      if (!current || (p.requestId !== null && p.requestId !== current.requestId)) return;
      set({ importProgress: { ...current, source: p.source, fileIndex: p.fileIndex, fileCount: p.fileCount, done: p.done, total: p.total } });
    },

    dismissImport() {
      set({ lastImport: null });
    },
  };
};
