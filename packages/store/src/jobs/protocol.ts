/**
 * The one worker protocol of the store: a host posts `{method, args}` for one of the store's
 * operations (jobs/operations.ts), so that its bulk work (imports, the lines agents append to
 * followed files, exports, pruning rewrites) runs on a worker thread with the worker's own
 * connection to the database (jobs/worker.ts) while its main thread keeps answering.
 */
import type { WireError } from "@bonsai/core";
import type { ImportProgress, StoreEventName, StoreEvents } from "../session-store";
import type { Operation } from "./operations";

/**
 * What a call's caller may pass beside its arguments, inside the options object of a method that
 * takes one (ImportOptions): a cancel signal and a progress callback. Neither crosses the thread
 * boundary: the worker gives the method a signal read from a shared flag and a callback that posts.
 */
export interface CallControl {
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
  | {
      kind: "store-call";
      id: number;
      dbPath: string;
      nativeBinding?: string;
      writeThrough: boolean;
      method: Operation;
      args: unknown[];
      /** the index of the argument that carried the caller's signal and progress callback (taken out before posting) */
      control?: number;
      cancel: SharedArrayBuffer;
    }
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
  return kind === "store-call" || kind === "store-close";
}
