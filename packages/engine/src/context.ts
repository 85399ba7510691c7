/** The small context the engine's modules share: the store, events, settings, hooks, models, planner and what runs. */
import type { SessionActivity } from "./activity";
import type { EngineEventEmitter } from "./events";
import type { HookRunner } from "./hooks";
import type { Models } from "./models";
import type { CompactionPlanner } from "./planner";
import type { SettingsManager } from "./settings-manager";
import type { CreateEngineOptions, EngineStore } from "./types";

export interface EngineContext {
  readonly store: EngineStore;
  readonly events: EngineEventEmitter;
  readonly settings: SettingsManager;
  readonly hooks: HookRunner;
  /** resolves once the user hook modules asked for are loaded */
  hooksLoaded(): Promise<unknown>;
  readonly models: Models;
  readonly planner: CompactionPlanner;
  readonly activity: SessionActivity;
  readonly options: Pick<CreateEngineOptions, "pruneConfig">;
  /** the auto-continue prompt after a threshold compaction (prompt turns, given here so that triggers need not import them) */
  continueAfterCompaction(sessionId: string): Promise<unknown>;
}
