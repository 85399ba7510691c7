/**
 * Store jobs: the bulk work of a store (imports, the lines agents append to followed files,
 * exports, pruning rewrites) as messages, so that a host can run it on a worker thread with the
 * worker's own connection to the database (jobs/worker.ts) while its main thread keeps answering.
 */
import type { PrunedResult, WireError } from "@bonsai/core";
import type { ExportOptions, ImportPathsResult, ImportProgress, ImportReport, PiCopy, PiCopyOptions, PruneOptions, StoreEventName, StoreEvents } from "../session-store";

export type StoreJob =
  /** opens the worker's store and nothing else: a host starts its worker before the first real job needs it */
  | { kind: "open" }
  /** a tree is being drawn (from a skeleton the host holds): background indexing waits meanwhile */
  | { kind: "quiet" }
  /**
   * indexes for search, in the background of the store's thread, every entry not in the index yet
   * (a batch per turn of its event loop, jobs running in between); answers at once with how many
   * there are
   */
  | { kind: "index" }
  | { kind: "importFile"; file: string }
  | { kind: "importPaths"; paths: string[] }
  /** a followed file changed: read what was appended (or the file again) */
  | { kind: "sync"; sessionId: string; file: string }
  | { kind: "exportJsonl"; sessionId: string; file: string }
  | { kind: "renderJsonl"; sessionId: string }
  | { kind: "exportMarkdown"; sessionId: string; file?: string; options?: ExportOptions }
  /** the formats layer's exports of the path to `leafId` (null: no leaf), written atomically to `file` */
  | { kind: "exportHtml"; sessionId: string; file: string; leafId: string | null }
  | { kind: "exportPi"; sessionId: string; file: string; leafId: string | null }
  /** "Continue in pi": the pi copy of the path written in pi's folder and imported */
  /**
   * the session's tree skeleton in its wire form (core's packSkeleton), as JSON text: a string
   * crosses the thread boundary at once, where the structured clone of its 100,000-element arrays
   * took longer than reading them (0.4 s on the main thread, cold)
   */
  | { kind: "packedSkeleton"; sessionId: string }
  /** removes a session and every row of it from the store (its file is not touched) */
  | { kind: "deleteSession"; sessionId: string }
  | { kind: "continueInPi"; sessionId: string; options?: PiCopyOptions }
  | { kind: "applyPruning"; sessionId: string; results: Pick<PrunedResult, "entryId" | "message">[]; options?: PruneOptions }
  | { kind: "restorePruned"; sessionId: string; entryIds?: string[] };

/** What each job answers. */
export interface StoreJobResults {
  open: void;
  quiet: void;
  index: number;
  importFile: ImportReport;
  importPaths: ImportPathsResult;
  sync: void;
  exportJsonl: void;
  renderJsonl: string;
  exportMarkdown: string;
  exportHtml: void;
  exportPi: void;
  continueInPi: PiCopy;
  deleteSession: void;
  packedSkeleton: string;
  applyPruning: number;
  restorePruned: number;
}

export type StoreJobKind = StoreJob["kind"];
export type JobOf<K extends StoreJobKind> = Extract<StoreJob, { kind: K }>;

export interface JobOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
}

/** An error as it crosses the thread boundary, with its kind (rebuilt with its class on the other side). */
export interface SentError extends WireError {
  /** Node's or SQLite's error code (a WriteFailedError's "ENOSPC") */
  code?: string;
  file?: string;
  detail?: string;
  /** a SessionLockedError's session */
  sessionId?: string;
}

// ---------------------------------------------------------------- messages

/** main -> worker */
export type ToWorker =
  | { kind: "store-job"; id: number; dbPath: string; nativeBinding?: string; writeThrough: boolean; job: StoreJob; cancel: SharedArrayBuffer }
  | { kind: "store-close" };

/** worker -> main */
export type FromWorker =
  | { kind: "store-result"; id: number; ok: true; value: unknown }
  | { kind: "store-result"; id: number; ok: false; error: SentError }
  | { kind: "store-progress"; id: number; progress: ImportProgress }
  | { kind: "store-event"; name: StoreEventName; payload: StoreEvents[StoreEventName] }
  | { kind: "store-closed" };

export function isToWorker(message: unknown): message is ToWorker {
  const kind = (message as { kind?: unknown } | null)?.kind;
  return kind === "store-job" || kind === "store-close";
}
