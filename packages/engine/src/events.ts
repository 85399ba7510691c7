/**
 * Typed events the engine emits for UIs (the Electron renderer through IPC, the CLI). Every payload
 * names its session. Names of the automatic-compaction events follow the reference
 * (triggers-and-hooks.md §5); manual compactions have their own pair, as they emit no auto events.
 */
import type { AssistantMessage, BonsaiSettings, BranchSummaryEntry, SessionEntry } from "@bonsai/core";
import type { CompactionResult } from "./compact";
import type { HookErrorInfo } from "./hooks";

export type AutoCompactionReason = "threshold" | "overflow";
export type CompactionStage = "preparing" | "hooks" | "history" | "turnPrefix" | "short" | "saving";

export interface EngineEvents {
  auto_compaction_start: { sessionId: string; reason: AutoCompactionReason };
  auto_compaction_end: {
    sessionId: string;
    reason: AutoCompactionReason;
    result: CompactionResult | undefined;
    aborted: boolean;
    willRetry: boolean;
    errorMessage?: string;
    /** the appended compaction entry, on success */
    entry?: SessionEntry;
  };
  compaction_start: { sessionId: string; reason: "manual"; dryRun: boolean };
  compaction_end: {
    sessionId: string;
    reason: "manual";
    dryRun: boolean;
    result?: CompactionResult;
    aborted: boolean;
    errorMessage?: string;
    entry?: SessionEntry;
  };
  /** a step of a running compaction (manual or automatic) */
  compaction_progress: { sessionId: string; stage: CompactionStage; summarizer?: string };
  /** a failed call is retried (compaction candidates, or a conversation turn) */
  auto_retry_start: { sessionId: string; scope: "compaction" | "turn"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string; candidate?: string };
  auto_retry_end: { sessionId: string; scope: "turn"; success: boolean; attempt: number; finalError?: string };
  branch_summary_start: { sessionId: string; targetId: string };
  branch_summary_end: {
    sessionId: string;
    targetId: string;
    summaryEntry?: BranchSummaryEntry;
    cancelled: boolean;
    aborted: boolean;
    errorMessage?: string;
  };
  /** the leaf moved (navigation, or a turn's appends) */
  leaf_changed: { sessionId: string; leafId: string | null };
  pruning_done: { sessionId: string; prunedCount: number; tokensSaved: number; dryRun: boolean; entryIds: string[] };
  turn_start: { sessionId: string; userEntryId: string | undefined; model: string };
  turn_delta: { sessionId: string; delta: string };
  turn_end: { sessionId: string; message: AssistantMessage; entryId: string | undefined };
  hook_error: HookErrorInfo & { sessionId?: string };
  settings_changed: { settings: BonsaiSettings };
}

export type EngineEventName = keyof EngineEvents;
export type EngineListener<K extends EngineEventName> = (payload: EngineEvents[K]) => void;

export class EngineEventEmitter {
  readonly #listeners = new Map<EngineEventName, Set<(payload: never) => void>>();
  readonly #any = new Set<<K extends EngineEventName>(name: K, payload: EngineEvents[K]) => void>();

  on<K extends EngineEventName>(name: K, listener: EngineListener<K>): () => void {
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  /** every event, with its name (for transports that forward all of them) */
  onAny(listener: <K extends EngineEventName>(name: K, payload: EngineEvents[K]) => void): () => void {
    this.#any.add(listener);
    return () => this.#any.delete(listener);
  }

  emit<K extends EngineEventName>(name: K, payload: EngineEvents[K]): void {
    for (const l of [...(this.#listeners.get(name) ?? [])]) {
      try {
        (l as EngineListener<K>)(payload);
      } catch {
        // a listener's failure must not break the engine's run
      }
    }
    for (const l of [...this.#any]) {
      try {
        l(name, payload);
      } catch {
        // as above
      }
    }
  }
}
