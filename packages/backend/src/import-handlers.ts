/**
 * Imports from the window: uploads (chunks written to disk as they arrive, see uploads.ts), paths
 * inside the allowed folders (import-roots.ts), and in the desktop app the files chosen in the main
 * process's open dialog. Each file is one item of the importProgress events; the results never
 * quote a file that is not a session (import-results.ts). The files are read by store jobs (on the
 * store worker in the app and `bonsai serve`: this thread keeps answering), and cancelImport stops a
 * call: the file being read is left as it was, the files after it are not read.
 */
import { IpcError, type EventSink, type Handlers, type ImportResult } from "@bonsai/ipc";
import { importFailureOf, type HostStore, type ImportReport } from "@bonsai/store";
import type { HostDialogs } from "./dialogs";
import { importRoots, resolveImportPaths } from "./import-roots";
import { failureReason, isImported, refusedResult, toImportResult } from "./import-results";
import type { Uploads } from "./uploads";

type ImportHandlerNames = "importSessions" | "cancelImport" | "importFromDialog" | "beginUpload" | "uploadChunk" | "cancelUpload";

export interface ImportHandlerDeps {
  store: HostStore;
  emit: EventSink;
  uploads: Uploads;
  env: NodeJS.ProcessEnv;
  /** the configured sessionDirs (read fresh: `bonsai config set` may have changed them) */
  sessionDirs: () => readonly string[];
  /** the desktop app's native dialogs; absent in browser mode */
  dialogs?: HostDialogs;
  /** the host's commands a refusal names (`bonsai config set …`, `bonsai import …`) */
  hostCommands: { config: string; import: string };
  /** a session's title for the results */
  title: (sessionId: string) => string | null;
  /** the running calls by requestId (cancelImport aborts them), shared with the git import */
  running?: Map<string, AbortController>;
  /** called with the results of every import (e.g. to read the new sessions' skeletons ahead) */
  imported: (results: readonly ImportResult[], reports: readonly ImportReport[]) => void;
}

const IMPORT_CANCELLED = "import cancelled: nothing of this file was stored";

function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === "AbortError";
}

/** One file to import: from a path or an upload. */
interface Item {
  source: string;
  file: string;
  /** an upload's file: deleted when it turns out not to be a session */
  upload?: boolean;
  /** refused before reading: the reason */
  refused?: string;
}

export function importHandlers(deps: ImportHandlerDeps): Pick<Handlers, ImportHandlerNames> {
  const { store, emit, uploads } = deps;

  const isSourceOfASession = (file: string) => store.listSessions().some((s) => s.sourcePath === file);
  /** running calls by requestId (cancelImport) */
  const running = deps.running ?? new Map<string, AbortController>();

  const run = async (items: readonly Item[], requestId: string | undefined): Promise<ImportResult[]> => {
    const results: ImportResult[] = [];
    const reports: ImportReport[] = [];
    const cancel = new AbortController();
    if (requestId !== undefined) running.set(requestId, cancel);
    try {
      for (let i = 0; i < items.length; i++) {
        const { source, file, upload, refused } = items[i]!;
        const progress = (done: number, total: number, finished: boolean) =>
          emit("importProgress", { requestId: requestId ?? null, source, fileIndex: i, fileCount: items.length, done, total, finished });
        if (refused !== undefined || cancel.signal.aborted) {
          results.push(refusedResult(source, refused ?? IMPORT_CANCELLED));
          if (upload && refused === undefined && !isSourceOfASession(file)) uploads.discard(file);
          continue;
        }
        progress(0, 0, false);
        try {
          const report = await deps.store.importFile(file, { signal: cancel.signal, onProgress: (p) => progress(p.bytesDone, p.bytesTotal, false) });
          reports.push(report);
          results.push(toImportResult(source, report, report.sessionId && isImported(report) ? deps.title(report.sessionId) : null));
          if (upload && !isImported(report) && !isSourceOfASession(file)) uploads.discard(file);
        } catch (err) {
          const reason = isAbort(err) ? IMPORT_CANCELLED : failureReason({ status: "failed", issues: [], failure: importFailureOf(err) });
          results.push(refusedResult(source, reason));
          if (upload && !isSourceOfASession(file)) uploads.discard(file);
        }
        progress(1, 1, true);
      }
    } finally {
      if (requestId !== undefined && running.get(requestId) === cancel) running.delete(requestId);
    }
    // the store announces new and re-imported sessions (sessionsChanged) itself
    deps.imported(results, reports);
    return results;
  };

  return {
    importSessions: async ({ paths = [], uploads: uploadIds = [], requestId }) => {
      // every path is checked before anything is read: one outside the allowed folders refuses the call
      const roots = importRoots(deps.sessionDirs(), deps.env, uploads.dir);
      const items: Item[] = resolveImportPaths(paths, roots, deps.hostCommands).flatMap((r) => [
        ...r.files.map((file) => ({ source: r.folder ? file : r.source, file })),
        ...r.skipped.map((file) => ({ source: file, file, refused: "skipped: it leads outside the session folders (a symbolic link)" })),
      ]);
      for (const uploadId of uploadIds) {
        try {
          const { name, file } = uploads.finish(uploadId);
          items.push({ source: name, file, upload: true });
        } catch (err) {
          uploads.cancel(uploadId);
          items.push({ source: uploadId, file: "", refused: err instanceof Error ? err.message : String(err) });
        }
      }
      return { results: await run(items, requestId) };
    },

    cancelImport: ({ requestId }) => {
      const call = running.get(requestId);
      call?.abort();
      return { cancelled: call !== undefined };
    },

    importFromDialog: async ({ requestId }) => {
      if (!deps.dialogs) throw new IpcError("unavailable", "browser mode has no native file dialog: pick files with Import… or drop them on the window");
      const chosen = await deps.dialogs.openSessionFiles();
      if (!chosen || chosen.length === 0) return { cancelled: true, results: [] };
      // the paths come from the main process's dialog (the user chose them), not from the window
      return { cancelled: false, results: await run(chosen.map((file) => ({ source: file, file })), requestId) };
    },

    beginUpload: ({ name, size }) => uploads.begin(name, size),
    uploadChunk: ({ uploadId, offset, data }) => uploads.chunk(uploadId, offset, data),
    cancelUpload: ({ uploadId }) => ({ cancelled: uploads.cancel(uploadId) }),
  };
}
