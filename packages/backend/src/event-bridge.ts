/** Store and engine events -> contract events (and user-facing notifications). */
import type { Engine, EngineEvents } from "@bonsai/engine";
import type { EventPayload, EventSink } from "@bonsai/ipc";
import type { SessionStore } from "@bonsai/store";
import type { RequestTracker } from "./engine-handlers";

export function forwardStoreEvents(store: SessionStore, emit: EventSink): () => void {
  const offs = [
    store.on("entries-added", ({ sessionId, entries, source }) => {
      if (source === "import") return; // importSessions reports imports (sessionsChanged)
      emit("sessionUpdated", { sessionId, reason: "entries-added", entryIds: entries.map((e) => e.id), leafId: store.getLeaf(sessionId) });
    }),
    store.on("session-updated", ({ sessionId, reason }) => {
      switch (reason) {
        case "imported":
        case "removed":
          emit("sessionsChanged", {});
          return;
        case "appended":
          return; // entries-added carries it
        case "reimported":
          emit("sessionsChanged", {});
          emit("sessionUpdated", { sessionId, reason: "reimported", entryIds: [], leafId: store.getLeaf(sessionId) });
          return;
        case "leaf":
          emit("sessionUpdated", { sessionId, reason: "leaf-moved", entryIds: [], leafId: store.getLeaf(sessionId) });
          return;
        case "pruned":
        case "restored":
          emit("sessionUpdated", { sessionId, reason, entryIds: [], leafId: store.getLeaf(sessionId) });
          return;
        case "detached": {
          // the source file (or its folder) is read-only or write-through is off: say so once
          emit("sessionsChanged", {});
          const why = store.getSession(sessionId)?.detached ?? "the source file is not written";
          emit("notification", { level: "warning", message: `Changes to this session are kept in Bonsai only: ${why}.`, sessionId });
          return;
        }
      }
    }),
    store.on("follow-error", ({ sessionId, message }) => emit("notification", { level: "warning", message, sessionId })),
  ];
  return () => offs.forEach((off) => off());
}

/**
 * The one notification of an automatic compaction's outcome (triggers-and-hooks.md §5), in the seed's
 * words: cancelled; compacted; failed with the engine's message verbatim (`Auto-compaction failed: …`
 * / `Context overflow recovery failed: …`); nothing to do (no model, nothing to summarize).
 */
export function autoCompactionNotification(e: Pick<EngineEvents["auto_compaction_end"], "result" | "aborted" | "errorMessage">): Pick<EventPayload<"notification">, "level" | "message"> {
  if (e.aborted) return { level: "info", message: "Auto-compaction cancelled" };
  if (e.result !== undefined) return { level: "info", message: "Context compacted automatically" };
  if (e.errorMessage) return { level: "warning", message: e.errorMessage };
  return { level: "warning", message: "Auto-compaction failed; continuing without compaction" };
}

export function forwardEngineEvents(engine: Engine, emit: EventSink, requests: RequestTracker): () => void {
  const offs = [
    engine.on("compaction_start", ({ sessionId, dryRun }) =>
      emit("compactionStart", { sessionId, requestId: requests.get("compaction", sessionId), reason: "manual", dryRun }),
    ),
    engine.on("compaction_end", (e) =>
      emit("compactionEnd", {
        sessionId: e.sessionId,
        requestId: requests.get("compaction", e.sessionId),
        reason: "manual",
        ok: e.result !== undefined && !e.aborted,
        aborted: e.aborted,
        errorMessage: e.errorMessage ?? null,
        entryId: e.entry?.id ?? null,
        willRetry: false,
      }),
    ),
    engine.on("auto_compaction_start", ({ sessionId, reason }) => {
      emit("compactionStart", { sessionId, requestId: null, reason, dryRun: false });
      emit("notification", { level: "info", message: reason === "overflow" ? "Context overflow: compacting…" : "Context near its limit: compacting…", sessionId });
    }),
    engine.on("auto_compaction_end", (e) => {
      const ok = e.result !== undefined;
      emit("compactionEnd", {
        sessionId: e.sessionId,
        requestId: null,
        reason: e.reason,
        ok,
        aborted: e.aborted,
        errorMessage: e.errorMessage ?? null,
        entryId: e.entry?.id ?? null,
        willRetry: e.willRetry,
      });
      emit("notification", { ...autoCompactionNotification(e), sessionId: e.sessionId });
    }),
    engine.on("auto_retry_start", (e) =>
      emit("notification", {
        level: "info",
        message: `Retrying (attempt ${e.attempt} of ${e.maxAttempts}) in ${Math.round(e.delayMs / 1000)} s: ${e.errorMessage}`,
        sessionId: e.sessionId,
      }),
    ),
    engine.on("branch_summary_start", ({ sessionId, targetId }) =>
      emit("branchSummaryStart", { sessionId, requestId: requests.get("branchSummary", sessionId), targetId }),
    ),
    engine.on("branch_summary_end", (e) =>
      emit("branchSummaryEnd", {
        sessionId: e.sessionId,
        requestId: requests.get("branchSummary", e.sessionId),
        ok: !e.cancelled && e.errorMessage === undefined,
        aborted: e.aborted,
        errorMessage: e.errorMessage ?? null,
        entryId: e.summaryEntry?.id ?? null,
      }),
    ),
    engine.on("leaf_changed", ({ sessionId, leafId }) => emit("sessionUpdated", { sessionId, reason: "leaf-moved", entryIds: [], leafId })),
    engine.on("pruning_done", (e) => {
      if (!e.dryRun) emit("pruneDone", { sessionId: e.sessionId, prunedEntryIds: e.entryIds, tokensSaved: e.tokensSaved });
    }),
    engine.on("turn_delta", ({ sessionId, delta }) => emit("turnDelta", { sessionId, requestId: requests.get("prompt", sessionId), kind: "text", delta })),
    engine.on("turn_end", (e) =>
      emit("turnEnd", {
        sessionId: e.sessionId,
        requestId: requests.get("prompt", e.sessionId),
        stopReason: e.message.stopReason,
        errorMessage: e.message.errorMessage ?? null,
        entryIds: e.entryId ? [e.entryId] : [],
      }),
    ),
    engine.on("hook_error", (e) => emit("hookError", { hook: e.event, file: e.source, message: e.error })),
  ];
  return () => offs.forEach((off) => off());
}
