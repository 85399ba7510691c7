/**
 * The session engine: compaction (manual, threshold, overflow), conversation turns, pruning, branch
 * navigation with summaries, hooks, settings and events, over a SessionStore. Runs in any Node host.
 * The class composes the modules by concern over one EngineContext: manual-compaction.ts,
 * triggers.ts (automatic compaction), compaction-steps.ts (what both share), pruning.ts, turns.ts,
 * navigation.ts, models.ts (API keys, summarizers), hooks.ts, activity.ts (what runs, and its aborts).
 *
 * Orchestration follows triggers-and-hooks.md and branch-summary.md §1, with Bonsai's deviations
 * (spec README): no re-check on stale usage (2, which also covers 3), the saved entry handed to
 * session_compact is the one appended (6), a silent overflow compacts without continuing from an
 * assistant message (7), remote requests are abortable (8), pruning keeps originals (9), and the
 * threshold check after pruning subtracts only the savings inside the live context (10).
 */
import * as path from "node:path";
import type { BonsaiSettings, PruneConfig } from "@bonsai/core";
import { SessionActivity } from "./activity";
import type { CompactionResult } from "./compact";
import type { EngineContext } from "./context";
import { EngineEventEmitter, type EngineEventName, type EngineEvents, type EngineListener } from "./events";
import { HookRunner, type HookHandlers } from "./hooks";
import { commitPreviewedCompaction, compactNow } from "./manual-compaction";
import { Models } from "./models";
import { navigateTree } from "./navigation";
import { InlinePlanner, WorkerPlanner, type CompactionPlanner } from "./planner";
import { pruneConfigOf, pruneToolOutputs } from "./pruning";
import { SettingsManager } from "./settings-manager";
import { AUTO_CONTINUE_TEXT, runPrompt } from "./turns";
import type { CompactOutcome, CompactRequest, CreateEngineOptions, NavigateOutcome, NavigateRequest, PromptOutcome, PruneOutcome } from "./types";

export class Engine {
  readonly #ctx: EngineContext;
  readonly #options: CreateEngineOptions;
  #hooksLoaded: Promise<string[]> = Promise.resolve([]);

  constructor(options: CreateEngineOptions) {
    this.#options = options;
    const events = new EngineEventEmitter();
    const settings = new SettingsManager(options.store, options.settings ?? {}, (s) => events.emit("settings_changed", { settings: s }));
    const hooks = new HookRunner((info) => events.emit("hook_error", info));
    for (const [i, handlers] of (options.hooks ?? []).entries()) hooks.register(`code#${i + 1}`, handlers);
    const planner = options.worker
      ? new WorkerPlanner({ workerUrl: options.worker.url, dbPath: options.worker.dbPath, nativeBinding: options.worker.nativeBinding, size: options.worker.size, execArgv: options.worker.execArgv })
      : new InlinePlanner(options.store);
    this.#ctx = {
      store: options.store,
      events,
      settings,
      hooks,
      hooksLoaded: () => this.#hooksLoaded,
      models: new Models(() => settings.get(), options),
      planner,
      activity: new SessionActivity(),
      options,
      continueAfterCompaction: (sessionId) => runPrompt(this.#ctx, sessionId, AUTO_CONTINUE_TEXT, { synthetic: true, depth: 1 }),
    };
  }

  // ------------------------------------------------------------------ setup, events, settings, hooks

  /** Loads user hook modules (settings.hooksDir, else <dataDir>/hooks); returns the files loaded. */
  loadUserHooks(): Promise<string[]> {
    const dir = this.#ctx.settings.get().hooksDir || (this.#options.dataDir ? path.join(this.#options.dataDir, "hooks") : "");
    this.#hooksLoaded = dir ? this.#ctx.hooks.loadDirectory(dir) : Promise.resolve([]);
    return this.#hooksLoaded;
  }

  /** Registers hook handlers from code; returns a function removing them. */
  registerHooks(handlers: Partial<HookHandlers>, source = "api"): () => void {
    return this.#ctx.hooks.register(source, handlers);
  }

  on<K extends EngineEventName>(name: K, listener: EngineListener<K>): () => void {
    return this.#ctx.events.on(name, listener);
  }

  onAny(listener: <K extends EngineEventName>(name: K, payload: EngineEvents[K]) => void): () => void {
    return this.#ctx.events.onAny(listener);
  }

  getSettings(): BonsaiSettings {
    return this.#ctx.settings.get();
  }

  /** Validates (throws SettingsValidationError naming the field), persists and applies. */
  updateSettings(patch: unknown): BonsaiSettings {
    return this.#ctx.settings.update(patch);
  }

  /** Reads the persisted settings again (another process, e.g. `bonsai config set`, may have changed them). */
  reloadSettings(): BonsaiSettings {
    return this.#ctx.settings.reload();
  }

  /** Settings problems found in the stored settings at start (those fields use their defaults). */
  get settingsLoadErrors() {
    return this.#ctx.settings.loadErrors;
  }

  /** true when a model endpoint is configured and offline mode is off */
  get modelConfigured(): boolean {
    return this.#ctx.models.configured;
  }

  isCompacting(sessionId: string): boolean {
    return this.#ctx.activity.compactions.has(sessionId);
  }

  /** a prompt (or its turn) is running on the session */
  isTurnRunning(sessionId: string): boolean {
    return this.#ctx.activity.isTurnRunning(sessionId);
  }

  /** the compaction planner (a worker pool when the host gave one): hosts plan what-ifs and previews on it too; closed by close() */
  get planner(): CompactionPlanner {
    return this.#ctx.planner;
  }

  async close(): Promise<void> {
    this.#ctx.activity.abortAll();
    await this.#ctx.planner.close();
  }

  // ------------------------------------------------------------------ compaction (manual-compaction.ts, triggers.ts)

  /**
   * Manual compaction (triggers-and-hooks.md §3): aborts a running turn first, one attempt with the
   * current model (or the offline summarizer), no automatic events. Errors: NothingToCompactError
   * (`Already compacted`, `Nothing to compact (session too small)`), CancelledError
   * (`Compaction cancelled`), SessionBusyError, summarizer failures (ModelError).
   */
  compact(sessionId: string, request: CompactRequest = {}): Promise<CompactOutcome> {
    return compactNow(this.#ctx, sessionId, request);
  }

  /**
   * Appends a (possibly edited) result of a dry run. Refused when the leaf moved since the preview
   * (StaleCompactionError), when the summary is empty, or when firstKeptEntryId is not on the
   * current branch (InvalidRequestError).
   */
  commitCompaction(sessionId: string, result: CompactionResult, expectedLeafId?: string | null): Promise<CompactOutcome> {
    return commitPreviewedCompaction(this.#ctx, sessionId, result, expectedLeafId);
  }

  /** Aborts the manual and automatic compactions of a session (default: of every session). */
  abortCompaction(sessionId?: string): void {
    this.#ctx.activity.abortCompactions(sessionId);
  }

  // ------------------------------------------------------------------ pruning (pruning.ts)

  /** The pruning policy: the host's pruneConfig when given, else the settings' protect and minimum values with the normative protected tools. */
  pruneConfig(): PruneConfig {
    return pruneConfigOf(this.#ctx);
  }

  /** Tool-output pruning of the current branch (pruning.md); originals are kept by the store. */
  pruneToolOutputs(sessionId: string, options: { dryRun?: boolean } = {}): Promise<PruneOutcome> {
    return pruneToolOutputs(this.#ctx, sessionId, options);
  }

  // ------------------------------------------------------------------ conversation turns (turns.ts)

  /** Aborts the running conversation turn of a session (its partial reply is kept, stopReason "aborted"). */
  abortTurn(sessionId: string): void {
    this.#ctx.activity.abortTurn(sessionId);
  }

  /**
   * Sends `text` as a user message with the session's current context to the configured model
   * (streamed), appends the user and assistant messages, then prunes and runs the compaction checks.
   */
  prompt(sessionId: string, text: string): Promise<PromptOutcome> {
    return runPrompt(this.#ctx, sessionId, text, { synthetic: false, depth: 0 });
  }

  // ------------------------------------------------------------------ tree navigation (navigation.ts)

  /** Aborts a running branch summary of a session (default: all). */
  abortBranchSummary(sessionId?: string): void {
    this.#ctx.activity.abortBranchSummaries(sessionId);
  }

  /** navigateTree (branch-summary.md §1). A cancelled or aborted navigation changes nothing. */
  navigateTree(sessionId: string, targetId: string, request: NavigateRequest = {}): Promise<NavigateOutcome> {
    return navigateTree(this.#ctx, sessionId, targetId, request);
  }
}

/** Creates the engine; call `loadUserHooks()` to read the hook modules of the data directory. */
export function createEngine(options: CreateEngineOptions): Engine {
  return new Engine(options);
}
