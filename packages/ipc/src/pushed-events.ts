/**
 * The events the backend pushes to the renderer (name -> payload schema), the second half of the
 * contract (contract.ts): both transports carry exactly these.
 */
import { z } from "zod";

const count = () => z.number().int().nonnegative();
const jobEnd = {
  sessionId: z.string(),
  ok: z.boolean(),
  aborted: z.boolean(),
  errorMessage: z.string().nullable(),
};

export const events = {
  /** one per file of an importSessions call, plus progress inside large files */
  importProgress: z.object({
    requestId: z.string().nullable(),
    source: z.string(),
    fileIndex: count(),
    fileCount: count(),
    /** bytes or lines read so far in this file, and its total (0 when unknown) */
    done: count(),
    total: count(),
    finished: z.boolean(),
  }),
  /** the list of sessions changed (import, delete) */
  sessionsChanged: z.object({}),
  /** a session's entries or leaf changed: refetch the skeleton (or append the ids) */
  sessionUpdated: z.object({
    sessionId: z.string(),
    reason: z.enum(["entries-added", "leaf-moved", "pruned", "restored", "label", "reimported"]),
    entryIds: z.array(z.string()),
    leafId: z.string().nullable(),
  }),
  compactionStart: z.object({
    sessionId: z.string(),
    requestId: z.string().nullable(),
    reason: z.enum(["manual", "threshold", "overflow"]),
    dryRun: z.boolean(),
  }),
  compactionEnd: z.object({
    ...jobEnd,
    requestId: z.string().nullable(),
    reason: z.enum(["manual", "threshold", "overflow"]),
    entryId: z.string().nullable(),
    willRetry: z.boolean(),
  }),
  branchSummaryStart: z.object({ sessionId: z.string(), requestId: z.string().nullable(), targetId: z.string().nullable() }),
  branchSummaryEnd: z.object({ ...jobEnd, requestId: z.string().nullable(), entryId: z.string().nullable() }),
  pruneDone: z.object({ sessionId: z.string(), prunedEntryIds: z.array(z.string()), tokensSaved: z.number() }),
  turnDelta: z.object({
    sessionId: z.string(),
    requestId: z.string().nullable(),
    kind: z.enum(["text", "thinking", "toolCall"]),
    delta: z.string(),
  }),
  turnEnd: z.object({
    sessionId: z.string(),
    requestId: z.string().nullable(),
    stopReason: z.string(),
    errorMessage: z.string().nullable(),
    entryIds: z.array(z.string()),
  }),
  /** user-facing messages (auto-compaction started/failed/cancelled, retries, ...) */
  notification: z.object({
    level: z.enum(["info", "warning", "error"]),
    message: z.string(),
    sessionId: z.string().nullable(),
  }),
  hookError: z.object({ hook: z.string(), file: z.string().nullable(), message: z.string() }),
  /** Electron application menu commands (never sent in browser mode) */
  menuCommand: z.object({ command: z.enum(["import", "export", "preferences", "search", "zoomToFit", "zoomToLeaf"]) }),
} as const;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
