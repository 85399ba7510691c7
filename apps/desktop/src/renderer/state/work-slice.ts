/**
 * What the explorer works on for the open session: what the model sees from a node, the
 * compaction plan and dry run, the running job, pruning, the switch-branch dialog, the streaming
 * reply, and the change Bonsai can undo.
 */
import type { CompactionOutcome, CompactionPlan, ContextPreview, MethodOutput, PrunePlan } from "@bonsai/ipc";
import { api, errorMessage } from "../lib/api";
import type { Slice } from "./types";

export type JobState =
  | { kind: "idle" }
  | { kind: "running"; what: "compaction" | "dryRun" | "branchSummary" | "prompt"; requestId: string; startedAt: number }
  | { kind: "failed"; message: string };

export type UndoState = MethodOutput<"getUndo">["undo"];

export interface WorkSlice {
  /** what the model sees from `context.leafId` (the selected node, or the leaf) */
  context: ContextPreview | null;
  contextError: string | null;
  /** the context (`sessionId:leafId`) whose messages the user asked to see all of, not folded */
  contextListedAll: string | null;
  plan: CompactionPlan | null;
  planError: string | null;
  dryRun: CompactionOutcome | null;
  job: JobState;
  prunePlan: PrunePlan | null;
  /** target of the switch-branch dialog (entry id), null when closed */
  switchTarget: string | null;
  /** text of the reply streaming in */
  streaming: string;
  /** text put into the composer (the prompt of a user message navigated to, to re-send it differently) */
  composerDraft: string | null;
  /** an automatic compaction running on the open session */
  autoCompaction: "threshold" | "overflow" | null;
  /** the last change made in Bonsai that can be undone, null when there is none */
  undo: UndoState;
  /** the last change undone that can be done again, null when there is none */
  redo: UndoState;
  /** fetch what the model sees from an entry (null = the leaf) */
  loadContext(entryId: string | null): Promise<void>;
  /** fetch the shown context again with every message listed (a long one comes folded) */
  listAllContextMessages(): Promise<void>;
  refreshUndo(): Promise<void>;
  setWork(patch: Partial<WorkState>): void;
  /** a session was opened or closed: drop what belonged to the old one */
  resetWork(): void;
}

type WorkState = Omit<WorkSlice, "loadContext" | "listAllContextMessages" | "refreshUndo" | "setWork" | "resetWork">;

const idle: WorkState = {
  context: null,
  contextError: null,
  contextListedAll: null,
  plan: null,
  planError: null,
  dryRun: null,
  job: { kind: "idle" },
  prunePlan: null,
  switchTarget: null,
  streaming: "",
  composerDraft: null,
  autoCompaction: null,
  undo: null,
  redo: null,
};

export const createWorkSlice: Slice<WorkSlice> = (set, get) => ({
  ...idle,

  async loadContext(entryId) {
    const { openSessionId: sessionId, skeleton } = get();
    if (!sessionId || !skeleton) return;
    const leafId = entryId ?? skeleton.leafId;
    const allMessages = get().contextListedAll === `${sessionId}:${leafId ?? ""}`;
    try {
      const context = await api().getContextPreview({ sessionId, leafId, ...(allMessages ? { allMessages } : {}) });
      if (get().openSessionId === sessionId && get().skeleton === skeleton) set({ context, contextError: null });
    } catch (err) {
      if (get().openSessionId === sessionId) set({ contextError: errorMessage(err) });
    }
  },

  async listAllContextMessages() {
    const shown = get().context;
    if (!shown || get().openSessionId !== shown.sessionId) return;
    set({ contextListedAll: `${shown.sessionId}:${shown.leafId ?? ""}` });
    await get().loadContext(shown.leafId);
  },

  async refreshUndo() {
    const sessionId = get().openSessionId;
    if (!sessionId) return;
    try {
      const { undo, redo } = await api().getUndo({ sessionId });
      if (get().openSessionId === sessionId) set({ undo, redo });
    } catch {
      if (get().openSessionId === sessionId) set({ undo: null, redo: null });
    }
  },

  setWork(patch) {
    set(patch);
  },

  resetWork() {
    set(idle);
    get().resetAmnesia();
  },
});
