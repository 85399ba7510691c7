/**
 * Exports for the window, never to a path it names: in browser mode a one-time download served by
 * `bonsai serve` (downloads.ts), in the desktop app the file the user chose in the main process's
 * save dialog. (`bonsai export SESSION -o FILE` writes paths on the host.)
 */
import * as path from "node:path";
import { IpcError, type Handlers } from "@bonsai/ipc";
import type { SessionStore } from "@bonsai/store";
import { DOWNLOAD_PATH, type Downloads } from "./downloads";
import type { HostDialogs } from "./dialogs";
import { requireSession } from "./session-handlers";

export interface ExportHandlerDeps {
  store: SessionStore;
  downloads: Downloads;
  dialogs?: HostDialogs;
}

type Format = "jsonl" | "markdown";

export function exportFileName(sourcePath: string | null, sessionId: string, format: Format): string {
  const stem = (sourcePath ? path.basename(sourcePath, ".jsonl") : sessionId).replace(/^[0-9a-f]{16}-/, "");
  return `${stem}.${format === "jsonl" ? "jsonl" : "md"}`;
}

export function exportMimeType(format: Format): string {
  return format === "jsonl" ? "application/x-ndjson" : "text/markdown; charset=utf-8";
}

export function exportHandlers(deps: ExportHandlerDeps): Pick<Handlers, "exportSession" | "saveSessionAs"> {
  const { store } = deps;
  const write = (sessionId: string, format: Format, file: string) => (format === "jsonl" ? store.exportJsonl(sessionId, file) : store.exportMarkdown(sessionId, file));

  return {
    exportSession: async ({ sessionId, format }) => {
      if (deps.dialogs) throw new IpcError("unavailable", "the desktop app saves exports with its save dialog (saveSessionAs)");
      const s = requireSession(store, sessionId);
      const fileName = exportFileName(s.sourcePath, s.id, format);
      const mimeType = exportMimeType(format);
      const id = await deps.downloads.prepare(fileName, mimeType, (file) => write(sessionId, format, file));
      return { fileName, mimeType, url: `${DOWNLOAD_PATH}${id}` };
    },

    saveSessionAs: async ({ sessionId, format }) => {
      if (!deps.dialogs) throw new IpcError("unavailable", "browser mode has no save dialog: exports are downloads (exportSession)");
      const s = requireSession(store, sessionId);
      const chosen = await deps.dialogs.saveSessionFile(exportFileName(s.sourcePath, s.id, format), format);
      if (chosen === null) return { path: null };
      // the path comes from the main process's save dialog (the user chose it), not from the window
      await write(sessionId, format, chosen);
      return { path: chosen };
    },
  };
}
