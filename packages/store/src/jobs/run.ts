/** Runs one store job on a store (the worker's, or the host's own when it has no worker). */
import { randomUUID } from "node:crypto";
import * as path from "node:path";
import { toPiSession } from "@bonsai/formats";
import { renderHtml } from "@bonsai/formats/html";
import { atomicWriteFileSync } from "../atomic-write";
import type { SqliteSessionStore } from "../sqlite-session-store";
import type { JobOf, JobOptions, StoreJobKind, StoreJobResults } from "./protocol";

/** how long a page may take to draw a tree after its skeleton was read (100,000 entries on a loaded machine) */
const DRAWING_MS = 2500;

export async function runStoreJob<K extends StoreJobKind>(store: SqliteSessionStore, job: JobOf<K>, options: JobOptions = {}): Promise<StoreJobResults[K]> {
  const j = job as JobOf<StoreJobKind>;
  const result = await (async (): Promise<StoreJobResults[StoreJobKind]> => {
    switch (j.kind) {
      case "open":
        return; // the store is open: the worker opened it for this job
      case "importFile":
        return store.importFile(j.file, options);
      case "importPaths":
        return store.importPaths(j.paths, options);
      case "sync":
        return store.followFile({ sessionId: j.sessionId, file: j.file });
      case "exportJsonl":
        return store.exportJsonl(j.sessionId, j.file);
      case "renderJsonl":
        return store.renderJsonl(j.sessionId);
      case "exportMarkdown":
        return store.exportMarkdown(j.sessionId, j.file, j.options);
      case "exportHtml":
        return atomicWriteFileSync(path.resolve(j.file), renderHtml(store.readSession(j.sessionId, j.leafId), { leafId: j.leafId }));
      case "exportPi":
        return atomicWriteFileSync(path.resolve(j.file), piCopyText(store, j.sessionId, j.leafId));
      case "packedSkeleton": {
        const { json, keep } = store.getPackedSkeletonJson(j.sessionId);
        // the tree is drawn next: background indexing (after an import) waits meanwhile
        store.quietIndexing(DRAWING_MS);
        // kept for the next start once the answer is on its way (a later turn of the event loop)
        if (keep) setImmediate(keep);
        return json;
      }
      case "quiet":
        return store.quietIndexing(DRAWING_MS);
      case "index": {
        const pending = store.unindexedCount();
        if (pending > 0) store.resumeIndexing();
        return pending;
      }
      case "deleteSession":
        return store.deleteSession(j.sessionId);
      case "continueInPi":
        return store.continueInPi(j.sessionId, j.options);
      case "applyPruning":
        return store.applyPruning(j.sessionId, j.results, j.options);
      case "restorePruned":
        return store.restorePruned(j.sessionId, j.entryIds);
    }
  })();
  return result as StoreJobResults[K];
}

/** The path to `leafId` as a new pi session (the text of its file); its parent is the source file, else the session. */
export function piCopyText(store: Pick<SqliteSessionStore, "readSession" | "getSession">, sessionId: string, leafId: string | null): string {
  const summary = store.getSession(sessionId);
  const read = store.readSession(sessionId, leafId);
  return toPiSession(read, { sessionId: randomUUID(), now: new Date().toISOString(), leafId, parentSession: summary?.sourcePath ?? sessionId }).text;
}
