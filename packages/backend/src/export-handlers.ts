/**
 * Exports for the window, never to a path it names: in browser mode a one-time download served by
 * `bonsai serve` (downloads.ts), in the desktop app the file the user chose in the main process's
 * save dialog. (`bonsai export SESSION -o FILE` writes paths on the host.)
 */
import * as path from "node:path";
import { IpcError, type Handlers } from "@bonsai/ipc";
import type { HostStore } from "@bonsai/store";
import { DOWNLOAD_PATH, type Downloads } from "./downloads";
import type { HostDialogs } from "./dialogs";
import { requireSession } from "./session-handlers";

export interface ExportHandlerDeps {
  /** the exports are written by its store jobs (on the store worker in the app and `bonsai serve`) */
  store: HostStore;
  downloads: Downloads;
  dialogs?: HostDialogs;
}

/** jsonl and markdown: the store's exports; html and pi: the formats layer's, from a leaf */
type Format = "jsonl" | "markdown" | "html" | "pi";

const KINDS: Record<Format, { extension: string; mimeType: string }> = {
  jsonl: { extension: "jsonl", mimeType: "application/x-ndjson" },
  markdown: { extension: "md", mimeType: "text/markdown; charset=utf-8" },
  html: { extension: "html", mimeType: "text/html; charset=utf-8" },
  pi: { extension: "pi.jsonl", mimeType: "application/x-ndjson" },
};

export function exportFileName(sourcePath: string | null, sessionId: string, format: Format): string {
  const stem = (sourcePath ? path.basename(sourcePath, ".jsonl") : sessionId).replace(/^[0-9a-f]{16}-/, "");
  return `${stem}.${KINDS[format].extension}`;
}

export function exportMimeType(format: Format): string {
  return KINDS[format].mimeType;
}

export function exportHandlers(deps: ExportHandlerDeps): Pick<Handlers, "exportSession" | "saveSessionAs"> {
  const { store } = deps;
  /** writes the export to `file` (a store job: never on this thread); `leafId` (markdown, html, pi): undefined = the session's leaf */
  const write = async (sessionId: string, format: Format, file: string, leafId: string | null | undefined): Promise<void> => {
    if (format === "jsonl") return store.exportJsonl(sessionId, file);
    if (format === "markdown") {
      await store.exportMarkdown(sessionId, file, leafId === undefined ? {} : { leafId });
      return;
    }
    const leaf = leafId === undefined ? requireSession(store, sessionId).leafId : leafId;
    await (format === "html" ? store.exportHtml(sessionId, file, leaf) : store.exportPi(sessionId, file, leaf));
  };
  const checkLeaf = (sessionId: string, leafId: string | null | undefined): void => {
    if (leafId && !store.getEntry(sessionId, leafId)) throw new IpcError("not_found", `no entry ${leafId} in session ${sessionId}`);
  };

  return {
    exportSession: async ({ sessionId, format, leafId }) => {
      if (deps.dialogs) throw new IpcError("unavailable", "the desktop app saves exports with its save dialog (saveSessionAs)");
      const s = requireSession(store, sessionId);
      checkLeaf(sessionId, leafId);
      const fileName = exportFileName(s.sourcePath, s.id, format);
      const mimeType = exportMimeType(format);
      const id = await deps.downloads.prepare(fileName, mimeType, (file) => write(sessionId, format, file, leafId));
      return { fileName, mimeType, url: `${DOWNLOAD_PATH}${id}` };
    },

    saveSessionAs: async ({ sessionId, format, leafId }) => {
      if (!deps.dialogs) throw new IpcError("unavailable", "browser mode has no save dialog: exports are downloads (exportSession)");
      const s = requireSession(store, sessionId);
      checkLeaf(sessionId, leafId);
      const chosen = await deps.dialogs.saveSessionFile(exportFileName(s.sourcePath, s.id, format), format);
      if (chosen === null) return { path: null };
      // the path comes from the main process's save dialog (the user chose it), not from the window
      await write(sessionId, format, chosen, leafId);
      return { path: chosen };
    },
  };
}
