/**
 * The session engine: compaction (manual, threshold, overflow), conversation turns, pruning, branch
 * navigation with summaries, hooks, settings and events, over a SessionStore. Runs in any Node host.
 *
 * Orchestration follows triggers-and-hooks.md and branch-summary.md §1, with Bonsai's deviations
 * (spec README): no re-check on stale usage (2, which also covers 3), the saved entry handed to
 * session_compact is the one appended (6), a silent overflow compacts without continuing from an
 * assistant message (7), remote requests are abortable (8), pruning keeps originals (9), and the
 * threshold check after pruning subtracts only the savings inside the live context (10).
 */
import * as path from "node:path";
import {
  applyPruning,
  buildIndex,
  buildSessionContext,
  collectEntriesForBranchSummary,
  convertToLlm,
  DEFAULT_PRUNE_CONFIG,
  isContextOverflow,
  isRetryableAssistantError,
  planPruningOf,
  shouldCompact,
  skipsCompactionCheck,
  thresholdInputTokens,
  type AssistantMessage,
  type BonsaiSettings,
  type BranchSummaryEntry,
  type CompactionEntry,
  type ContextSummary,
  type MessageEntry,
  type PrunedResult,
  type PruneConfig,
  type SessionEntry,
  type SettingsPatch,
  type ToolResultOnPath,
} from "@bonsai/core";
import {
  abortableSleep,
  OfflineSummarizer,
  OpenAiSummarizer,
  prompt as promptText,
  RemoteSummarizer,
  runWithCandidates,
  streamTurn,
  type Candidate,
  type Summarizer,
} from "@bonsai/llm";
import { EngineError, ModelError } from "./errors";
import { compact as summarizeCompaction, generateBranchSummary, type CompactionResult, type SummaryDetails } from "./compact";
import { EngineEventEmitter, type AutoCompactionReason, type EngineEventName, type EngineEvents, type EngineListener } from "./events";
import { HookRunner, type HookHandlers } from "./hooks";
import { InlinePlanner, WorkerPlanner, type CompactionPlan, type CompactionPlanner } from "./planner";
import { SettingsManager } from "./settings-manager";

/** The state a planned change relies on (the store re-checks it after reading the file up to date). */
export interface CommitExpectation {
  leafId?: string | null;
  onPath?: readonly string[];
  exists?: readonly string[];
}

/** What the engine needs of @bonsai/store's SessionStore. */
export interface EngineStore {
  loadEntries(sessionId: string): SessionEntry[];
  getEntry(sessionId: string, entryId: string): SessionEntry | undefined;
  getEntries(sessionId: string, entryIds: readonly string[]): (SessionEntry | undefined)[];
  getPath(sessionId: string, leafId?: string | null): SessionEntry[];
  getContextEntries(sessionId: string, leafId?: string | null): SessionEntry[];
  getContextSummary(sessionId: string, leafId?: string | null): ContextSummary;
  getCompactionWindow(sessionId: string, leafId?: string | null): SessionEntry[];
  getToolResultsOnPath(sessionId: string, leafId?: string | null): ToolResultOnPath[];
  isOnPath(sessionId: string, entryId: string, leafId?: string | null): boolean;
  getLeaf(sessionId: string): string | null;
  setLeaf(sessionId: string, leafId: string | null): void;
  /** where the session is kept: a pi file (`pi-jsonl` with a path, not detached) takes a branch switch's entry */
  getSession(sessionId: string): { sourceFormat: string; sourcePath: string | null; detached: string | null } | undefined;
  /** `expect`: what the change was planned against; the store refuses the append when it no longer holds */
  appendEntry(sessionId: string, entry: { type: string; [field: string]: unknown }, options?: { parentId?: string | null; expect?: CommitExpectation }): SessionEntry;
  applyPruning(sessionId: string, results: readonly { entryId: string; message: MessageEntry["message"] & { role: "toolResult" } }[], options?: { expect?: CommitExpectation }): number;
  getSettingsJson(): unknown;
  saveSettingsJson(value: unknown): void;
}

export const AUTO_CONTINUE_TEXT = "Continue if you have next steps.";
/** Provider recorded on assistant messages of OpenAI-compatible turns. */
export const TURN_PROVIDER = "openai";

/** customType of the entry that carries a branch switch without a summary into a pi file */
export const BRANCH_MARKER_TYPE = "bonsai-branch";

/** Builds the summarizer of one model id (tests and hosts may replace the OpenAI one). */
export type SummarizerFactory = (input: { model: string; settings: BonsaiSettings; apiKey: string }) => Summarizer;
/** Supplies the API key (the Electron app: safeStorage); default: the environment variable model.apiKeyEnv. */
export type ApiKeyProvider = (model: BonsaiSettings["model"]) => string | undefined | Promise<string | undefined>;

export interface CreateEngineOptions {
  store: EngineStore;
  /** run-time overrides over the persisted settings (CLI flags); validated, not persisted */
  settings?: SettingsPatch;
  summarizerFactory?: SummarizerFactory;
  apiKeyProvider?: ApiKeyProvider;
  /** hooks from code, registered before user hook modules */
  hooks?: Partial<HookHandlers>[];
  /** the Bonsai data directory; user hook modules are read from <dataDir>/hooks unless settings.hooksDir */
  dataDir?: string;
  /** force the offline summarizer (CLI --offline) */
  offline?: boolean;
  /** compaction worker pool: the bundled compaction-worker.mjs (or the .ts source with tsx) */
  worker?: { url: URL; dbPath: string; nativeBinding?: string; size?: number; execArgv?: string[] };
  /** pruning policy (default: the normative ["skill", "read"] protection) */
  pruneConfig?: PruneConfig;
  /**
   * Where pruning's rewrite of the session (and its file) runs: a host with a store worker passes
   * its jobs, so that the rewrite never runs on its main thread. Default: the store, inline.
   */
  applyPruning?: (sessionId: string, results: PrunedResult[], options: { expect: CommitExpectation }) => Promise<number>;
  /** environment used for API keys (default process.env) */
  env?: Record<string, string | undefined>;
}

export interface CompactRequest {
  instructions?: string;
  /** generate the result without appending it (commitCompaction appends an edited version) */
  dryRun?: boolean;
}

export interface CompactOutcome {
  result: CompactionResult;
  /** the appended entry; absent for a dry run */
  entry?: CompactionEntry;
  dryRun: boolean;
  /** the leaf the result was planned from (commitCompaction checks it has not moved) */
  leafId: string | null;
  fromExtension: boolean;
}

export interface PruneOutcome {
  prunedCount: number;
  tokensSaved: number;
  /** the part of tokensSaved inside the live context (what the threshold check subtracts) */
  tokensSavedInContext: number;
  entryIds: string[];
  dryRun: boolean;
}

export interface NavigateRequest {
  summarize?: boolean;
  instructions?: string;
}

export interface NavigateOutcome {
  cancelled: boolean;
  aborted?: boolean;
  editorText?: string;
  summaryEntry?: BranchSummaryEntry;
  /** the leaf after navigation */
  leafId: string | null;
}

export interface PromptOutcome {
  /** the final assistant message of the turn (after retries) */
  message: AssistantMessage;
  userEntryId: string;
  assistantEntryId?: string;
}

type PlannedCompaction = CompactionPlan & { preparation: NonNullable<CompactionPlan["preparation"]> };

interface TurnState {
  controller: AbortController;
  /** aborted by a manual compaction: the partial reply is not persisted */
  discard: boolean;
}

interface CompactionState {
  controller: AbortController;
  kind: "manual" | "auto";
  done: Promise<unknown>;
}


function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === "127.0.0.1" || host === "localhost" || host === "[::1]" || host === "::1";
  } catch {
    return false;
  }
}

function userText(content: string | { type: string; text?: string }[]): string {
  if (typeof content === "string") return content;
  return content.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("");
}

function withoutUndefined<T extends Record<string, unknown>>(obj: T): T {
  for (const key of Object.keys(obj)) if (obj[key] === undefined) delete obj[key];
  return obj;
}

export class Engine {
  readonly #store: EngineStore;
  readonly #events = new EngineEventEmitter();
  readonly #settings: SettingsManager;
  readonly #hooks: HookRunner;
  readonly #planner: CompactionPlanner;
  readonly #options: CreateEngineOptions;
  readonly #turns = new Map<string, TurnState>();
  /** prompts from their call to their end (registered before the first await, so no abort is lost) */
  readonly #prompts = new Map<string, AbortController>();
  readonly #compactions = new Map<string, CompactionState>();
  readonly #branchSummaries = new Map<string, AbortController>();
  #hooksLoaded: Promise<string[]> = Promise.resolve([]);

  constructor(options: CreateEngineOptions) {
    this.#options = options;
    this.#store = options.store;
    this.#settings = new SettingsManager(options.store, options.settings ?? {}, (settings) => this.#events.emit("settings_changed", { settings }));
    this.#hooks = new HookRunner((info) => this.#events.emit("hook_error", info));
    for (const [i, handlers] of (options.hooks ?? []).entries()) this.#hooks.register(`code#${i + 1}`, handlers);
    this.#planner = options.worker
      ? new WorkerPlanner({ workerUrl: options.worker.url, dbPath: options.worker.dbPath, nativeBinding: options.worker.nativeBinding, size: options.worker.size, execArgv: options.worker.execArgv })
      : new InlinePlanner(options.store);
  }

  // ------------------------------------------------------------------ setup, events, settings, hooks

  /** Loads user hook modules (settings.hooksDir, else <dataDir>/hooks); returns the files loaded. */
  loadUserHooks(): Promise<string[]> {
    const dir = this.#settings.get().hooksDir || (this.#options.dataDir ? path.join(this.#options.dataDir, "hooks") : "");
    this.#hooksLoaded = dir ? this.#hooks.loadDirectory(dir) : Promise.resolve([]);
    return this.#hooksLoaded;
  }

  /** Registers hook handlers from code; returns a function removing them. */
  registerHooks(handlers: Partial<HookHandlers>, source = "api"): () => void {
    return this.#hooks.register(source, handlers);
  }

  on<K extends EngineEventName>(name: K, listener: EngineListener<K>): () => void {
    return this.#events.on(name, listener);
  }

  onAny(listener: <K extends EngineEventName>(name: K, payload: EngineEvents[K]) => void): () => void {
    return this.#events.onAny(listener);
  }

  getSettings(): BonsaiSettings {
    return this.#settings.get();
  }

  /** Validates (throws SettingsValidationError naming the field), persists and applies. */
  updateSettings(patch: unknown): BonsaiSettings {
    return this.#settings.update(patch);
  }

  /** Reads the persisted settings again (another process, e.g. `bonsai config set`, may have changed them). */
  reloadSettings(): BonsaiSettings {
    return this.#settings.reload();
  }

  /** Settings problems found in the stored settings at start (those fields use their defaults). */
  get settingsLoadErrors() {
    return this.#settings.loadErrors;
  }

  isCompacting(sessionId: string): boolean {
    return this.#compactions.has(sessionId);
  }

  /** a prompt (or its turn) is running on the session */
  isTurnRunning(sessionId: string): boolean {
    return this.#turns.has(sessionId) || this.#prompts.has(sessionId);
  }

  async close(): Promise<void> {
    this.abortCompaction();
    for (const c of this.#branchSummaries.values()) c.abort();
    for (const c of this.#prompts.values()) c.abort();
    for (const t of this.#turns.values()) t.controller.abort();
    await this.#planner.close();
  }

  // ------------------------------------------------------------------ models and summarizers

  /** true when a model endpoint is configured and offline mode is off */
  get modelConfigured(): boolean {
    const m = this.#settings.get().model;
    return !this.#options.offline && m.baseUrl !== "" && m.model !== "";
  }

  async #apiKey(): Promise<string | undefined> {
    const model = this.#settings.get().model;
    if (this.#options.apiKeyProvider) {
      const key = await this.#options.apiKeyProvider(model);
      if (key) return key;
    }
    const env = this.#options.env ?? process.env;
    const key = model.apiKeyEnv ? env[model.apiKeyEnv] : undefined;
    if (key) return key;
    // local servers (llama.cpp, Ollama, LM Studio) need no key
    return isLoopback(model.baseUrl) ? "" : undefined;
  }

  /** The key for the configured model, or `No API key for <model>`. */
  async #requireApiKey(): Promise<string> {
    const key = await this.#apiKey();
    const model = this.#settings.get().model;
    if (key === undefined) throw new EngineError(`No API key for ${model.model} (set ${model.apiKeyEnv || "an API key"})`);
    return key;
  }

  #modelSummarizer(model: string, apiKey: string): Summarizer {
    const settings = this.#settings.get();
    if (this.#options.summarizerFactory) return this.#options.summarizerFactory({ model, settings, apiKey });
    return new OpenAiSummarizer({ baseUrl: settings.model.baseUrl, apiKey }, model);
  }

  #remote(): Summarizer | undefined {
    const url = this.#settings.get().compaction.remoteEndpoint;
    return url ? new RemoteSummarizer(url) : undefined;
  }

  /** The current model's summarizer (manual compaction, branch summaries), or the offline one. */
  async #currentSummarizer(): Promise<Summarizer> {
    if (!this.modelConfigured) return new OfflineSummarizer();
    const key = await this.#requireApiKey();
    return this.#modelSummarizer(this.#settings.get().model.model, key);
  }

  // ------------------------------------------------------------------ compaction

  async #plan(sessionId: string, withBranchEntries: boolean, withMessages: boolean): Promise<CompactionPlan> {
    const settings = this.#settings.get();
    return this.#planner.plan({ sessionId, leafId: this.#store.getLeaf(sessionId), settings: settings.compaction, withBranchEntries, withMessages });
  }

  /** Appends the compaction at the leaf it was planned from (the store refuses it if the leaf moved or firstKeptEntryId left the path). */
  #appendCompaction(
    sessionId: string,
    result: CompactionResult,
    fromExtension: boolean,
    preserveData: Record<string, unknown> | undefined,
    plannedLeafId: string | null,
  ): CompactionEntry {
    const body = withoutUndefined({
      type: "compaction",
      summary: result.summary,
      shortSummary: result.shortSummary,
      firstKeptEntryId: result.firstKeptEntryId,
      tokensBefore: result.tokensBefore,
      details: result.details,
      fromExtension,
      preserveData,
    });
    return this.#store.appendEntry(sessionId, body, { expect: { leafId: plannedLeafId, onPath: [result.firstKeptEntryId] } }) as CompactionEntry;
  }

  /**
   * Plans, runs hooks and summarizes. `attempt` runs the summarization (single attempt for manual,
   * candidates with retries for automatic). Returns undefined when nothing can be compacted.
   */
  async #produce(
    sessionId: string,
    signal: AbortSignal,
    customInstructions: string | undefined,
    summarize: (plan: PlannedCompaction, extra: { promptOverride?: string; extraContext?: string[] }) => Promise<CompactionResult>,
  ): Promise<
    | { kind: "empty"; plan: CompactionPlan }
    | { kind: "cancelled" }
    | { kind: "done"; result: CompactionResult; fromExtension: boolean; preserveData?: Record<string, unknown>; leafId: string | null }
  > {
    await this.#hooksLoaded;
    this.#events.emit("compaction_progress", { sessionId, stage: "preparing" });
    const wantBranch = this.#hooks.has("session_before_compact");
    if (signal.aborted) return { kind: "cancelled" };
    const plan = await this.#plan(sessionId, wantBranch, wantBranch || this.#hooks.has("session.compacting"));
    if (signal.aborted) return { kind: "cancelled" };
    if (!plan.preparation) return { kind: "empty", plan };
    const preparation = plan.preparation;
    const ctx = { sessionId };
    let hookCompaction: CompactionResult | undefined;
    if (wantBranch) {
      this.#events.emit("compaction_progress", { sessionId, stage: "hooks" });
      const before = await this.#hooks.beforeCompact(
        withoutUndefined({ type: "session_before_compact" as const, preparation, branchEntries: plan.branchEntries ?? [], customInstructions, signal }),
        ctx,
      );
      if (before?.cancel) return { kind: "cancelled" };
      hookCompaction = before?.compaction;
    }
    if (hookCompaction) {
      return { kind: "done", result: hookCompaction, fromExtension: true, preserveData: hookCompaction.preserveData, leafId: plan.leafId };
    }
    let extra: { promptOverride?: string; extraContext?: string[] } = {};
    let preserveData: Record<string, unknown> | undefined;
    if (this.#hooks.has("session.compacting")) {
      const r = await this.#hooks.compacting(
        { type: "session.compacting", sessionId, messages: [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages] },
        ctx,
      );
      if (r) {
        extra = withoutUndefined({ promptOverride: typeof r.prompt === "string" && r.prompt ? r.prompt : undefined, extraContext: Array.isArray(r.context) ? r.context.map(String) : undefined });
        if (r.preserveData && typeof r.preserveData === "object") preserveData = r.preserveData;
      }
    }
    if (signal.aborted) return { kind: "cancelled" };
    const result = await summarize(plan as PlannedCompaction, extra);
    if (preserveData) result.preserveData = preserveData;
    return { kind: "done", result, fromExtension: false, preserveData, leafId: plan.leafId };
  }

  #summarizeWith(sessionId: string, model: Summarizer, signal: AbortSignal, customInstructions: string | undefined) {
    return (plan: PlannedCompaction, extra: { promptOverride?: string; extraContext?: string[] }) =>
      summarizeCompaction(plan.preparation, withoutUndefined({ model, remote: this.#remote() }), {
        ...extra,
        customInstructions,
        signal,
        serialized: plan.serialized,
        onStage: (stage) => this.#events.emit("compaction_progress", { sessionId, stage, summarizer: stage === "turnPrefix" || !this.#remote() ? model.label : "remote" }),
      });
  }

  /** Abort the running turn of a session; its partial reply is not persisted. */
  #abortTurnForCompaction(sessionId: string): Promise<void> {
    const turn = this.#turns.get(sessionId);
    if (!turn) return Promise.resolve();
    turn.discard = true;
    turn.controller.abort();
    return new Promise((resolve) => {
      const check = () => (this.#turns.get(sessionId) === turn ? setTimeout(check, 5) : resolve());
      check();
    });
  }

  /**
   * Manual compaction (triggers-and-hooks.md §3): aborts a running turn first, one attempt with the
   * current model (or the offline summarizer), no automatic events. Errors: `Already compacted`,
   * `Nothing to compact (session too small)`, `Compaction cancelled`, summarizer failures.
   */
  async compact(sessionId: string, request: CompactRequest = {}): Promise<CompactOutcome> {
    if (this.#compactions.has(sessionId)) throw new EngineError("A compaction is already running for this session");
    const controller = new AbortController();
    let finish: () => void = () => undefined;
    const state: CompactionState = { controller, kind: "manual", done: new Promise<void>((r) => (finish = r)) };
    this.#compactions.set(sessionId, state);
    const dryRun = request.dryRun === true;
    const instructions = request.instructions?.trim() || undefined;
    this.#events.emit("compaction_start", { sessionId, reason: "manual", dryRun });
    try {
      await this.#abortTurnForCompaction(sessionId);
      const summarizer = await this.#currentSummarizer();
      const summarize = this.#summarizeWith(sessionId, summarizer, controller.signal, instructions);
      // a transient failure (429, 5xx, a retry hint) is retried as automatic compaction retries it
      const produced = await this.#produce(sessionId, controller.signal, instructions, (plan, extra) =>
        runWithCandidates([{ label: summarizer.label, available: true, run: () => summarize(plan, extra) }], this.#settings.get().retry, controller.signal, (n) =>
          this.#events.emit("auto_retry_start", withoutUndefined({ sessionId, scope: "compaction" as const, ...n })),
        ),
      );
      if (produced.kind === "empty") throw new EngineError(produced.plan.lastEntryIsCompaction ? "Already compacted" : "Nothing to compact (session too small)");
      if (produced.kind === "cancelled" || controller.signal.aborted) throw new EngineError("Compaction cancelled");
      const outcome: CompactOutcome = { result: produced.result, dryRun, leafId: produced.leafId, fromExtension: produced.fromExtension };
      if (!dryRun) outcome.entry = await this.#commit(sessionId, produced.result, produced.fromExtension, produced.preserveData, produced.leafId);
      this.#events.emit("compaction_end", withoutUndefined({ sessionId, reason: "manual" as const, dryRun, result: produced.result, aborted: false, entry: outcome.entry }));
      return outcome;
    } catch (error) {
      const aborted = controller.signal.aborted || (error instanceof Error && error.message === "Compaction cancelled");
      const message = aborted ? "Compaction cancelled" : error instanceof Error ? error.message : String(error);
      this.#events.emit("compaction_end", { sessionId, reason: "manual", dryRun, aborted, errorMessage: message });
      if (aborted && !(error instanceof EngineError)) throw new EngineError("Compaction cancelled");
      throw error;
    } finally {
      this.#compactions.delete(sessionId);
      finish();
    }
  }

  async #commit(
    sessionId: string,
    result: CompactionResult,
    fromExtension: boolean,
    preserveData: Record<string, unknown> | undefined,
    plannedLeafId: string | null,
  ): Promise<CompactionEntry> {
    this.#events.emit("compaction_progress", { sessionId, stage: "saving" });
    const entry = this.#appendCompaction(sessionId, result, fromExtension, preserveData, plannedLeafId);
    this.#events.emit("leaf_changed", { sessionId, leafId: entry.id });
    await this.#hooks.compacted({ type: "session_compact", compactionEntry: entry, fromExtension }, { sessionId });
    return entry;
  }

  /**
   * Appends a (possibly edited) result of a dry run. Refused when the leaf moved since the preview,
   * when the summary is empty, or when firstKeptEntryId is not on the current branch.
   */
  async commitCompaction(sessionId: string, result: CompactionResult, expectedLeafId?: string | null): Promise<CompactOutcome> {
    if (this.#compactions.has(sessionId)) throw new EngineError("A compaction is already running for this session");
    const leafId = this.#store.getLeaf(sessionId);
    if (expectedLeafId !== undefined && expectedLeafId !== leafId) throw new EngineError("The session changed since the preview: run the compaction again");
    if (typeof result?.summary !== "string" || result.summary.trim() === "") throw new EngineError("The compaction summary is empty");
    if (typeof result.firstKeptEntryId !== "string" || !Number.isFinite(result.tokensBefore)) throw new EngineError("The compaction result needs firstKeptEntryId and tokensBefore");
    if (!this.#store.isOnPath(sessionId, result.firstKeptEntryId)) throw new EngineError(`Entry ${result.firstKeptEntryId} is not on the current branch`);
    const entry = await this.#commit(sessionId, result, false, result.preserveData, expectedLeafId === undefined ? leafId : expectedLeafId);
    return { result, entry, dryRun: false, leafId, fromExtension: false };
  }

  /** Aborts the manual and automatic compactions of a session (default: of every session). */
  abortCompaction(sessionId?: string): void {
    for (const [id, state] of this.#compactions) if (sessionId === undefined || id === sessionId) state.controller.abort();
  }

  async #compactionCandidates(): Promise<Candidate<Summarizer>[]> {
    if (!this.modelConfigured) {
      const offline = new OfflineSummarizer();
      return [{ label: offline.label, available: true, run: async () => offline }];
    }
    const model = this.#settings.get().model;
    const key = await this.#apiKey();
    const ids = [...new Set([model.model, ...model.fallbackModels])];
    return ids.map((id) => ({ label: id, available: key !== undefined, run: async () => this.#modelSummarizer(id, key ?? "") }));
  }

  /** #runAutoCompaction (triggers-and-hooks.md §2). Resolves when the run (and an auto-continue turn) is over. */
  async #runAutoCompaction(sessionId: string, reason: AutoCompactionReason, willRetry: boolean, allowContinue: boolean): Promise<"compacted" | "none"> {
    const existing = this.#compactions.get(sessionId);
    if (existing?.kind === "manual") return "none";
    existing?.controller.abort();
    // registered before any await: an abortCompaction from now on reaches this run
    const controller = new AbortController();
    let finish: () => void = () => undefined;
    const state: CompactionState = { controller, kind: "auto", done: new Promise<void>((r) => (finish = r)) };
    this.#compactions.set(sessionId, state);
    if (existing) await existing.done.catch(() => undefined);
    this.#events.emit("auto_compaction_start", { sessionId, reason });
    const signal = controller.signal;
    const end = (payload: Omit<EngineEvents["auto_compaction_end"], "sessionId" | "reason">) =>
      this.#events.emit("auto_compaction_end", { ...withoutUndefined({ sessionId, reason, ...payload }), result: payload.result });
    try {
      const candidates = await this.#compactionCandidates();
      const retry = this.#settings.get().retry;
      const produced = await this.#produce(sessionId, signal, undefined, (plan, extra) =>
        runWithCandidates(
          candidates.map((c) => ({
            label: c.label,
            available: c.available,
            run: async (s) => this.#summarizeWith(sessionId, await c.run(s), signal, undefined)(plan as PlannedCompaction, extra),
          })),
          retry,
          signal,
          (n) => this.#events.emit("auto_retry_start", withoutUndefined({ sessionId, scope: "compaction" as const, ...n })),
        ),
      );
      if (produced.kind === "empty") {
        end({ result: undefined, aborted: false, willRetry: false });
        return "none";
      }
      if (produced.kind === "cancelled" || signal.aborted) {
        end({ result: undefined, aborted: true, willRetry: false });
        return "none";
      }
      const entry = await this.#commit(sessionId, produced.result, produced.fromExtension, produced.preserveData, produced.leafId);
      end({ result: produced.result, aborted: false, willRetry, entry });
    } catch (error) {
      if (signal.aborted) end({ result: undefined, aborted: true, willRetry: false });
      else {
        const msg = error instanceof Error ? error.message : "compaction failed";
        end({
          result: undefined,
          aborted: false,
          willRetry: false,
          errorMessage: reason === "overflow" ? `Context overflow recovery failed: ${msg}` : `Auto-compaction failed: ${msg}`,
        });
      }
      return "none";
    } finally {
      if (this.#compactions.get(sessionId) === state) this.#compactions.delete(sessionId);
      finish();
    }
    if (!willRetry && allowContinue && this.#settings.get().compaction.autoContinue !== false) {
      await this.#prompt(sessionId, AUTO_CONTINUE_TEXT, { synthetic: true, depth: 1 }).catch(() => undefined);
    }
    return "compacted";
  }

  /**
   * #checkCompaction (triggers-and-hooks.md §1.3). Returns "retry" when an overflow was compacted and
   * the failed turn should be sent again.
   */
  async #checkCompaction(sessionId: string, message: AssistantMessage | undefined, skipAbortedCheck: boolean, allowContinue: boolean): Promise<"retry" | "none"> {
    const settings = this.#settings.get();
    if (!settings.compaction.enabled || !message) return "none";
    const pruned = settings.pruning.enabled ? await this.pruneToolOutputs(sessionId, { dryRun: false }) : undefined;
    // aborted after a turn; deviation 2 (and 3): a message not newer than the latest compaction on the branch is stale
    if (skipsCompactionCheck(message, skipAbortedCheck, this.#store.getContextEntries(sessionId))) return "none";
    const contextWindow = this.modelConfigured ? settings.model.contextWindow : 0;
    const sameModel = this.modelConfigured && message.provider === TURN_PROVIDER && message.model === settings.model.model;
    if (sameModel && isContextOverflow(message, contextWindow)) {
      const outcome = await this.#runAutoCompaction(sessionId, "overflow", true, false);
      // deviation 7: after a silent overflow (a successful reply) there is nothing to retry
      return outcome === "compacted" && message.stopReason === "error" ? "retry" : "none";
    }
    // an error reply has no usable usage; deviation 10: only the savings inside the live context count
    const contextTokens = thresholdInputTokens(message, pruned && pruned.prunedCount > 0 ? pruned.tokensSavedInContext : 0);
    if (contextTokens !== undefined && shouldCompact(contextTokens, contextWindow, settings.compaction)) await this.#runAutoCompaction(sessionId, "threshold", false, allowContinue);
    return "none";
  }

  // ------------------------------------------------------------------ pruning

  /** The pruning policy: the host's pruneConfig when given, else the settings' protect and minimum values with the normative protected tools. */
  pruneConfig(): PruneConfig {
    if (this.#options.pruneConfig) return this.#options.pruneConfig;
    const { protectTokens, minimumSavings } = this.#settings.get().pruning;
    return { ...DEFAULT_PRUNE_CONFIG, protectTokens, minimumSavings };
  }

  /** Tool-output pruning of the current branch (pruning.md); originals are kept by the store. */
  async pruneToolOutputs(sessionId: string, options: { dryRun?: boolean } = {}): Promise<PruneOutcome> {
    const dryRun = options.dryRun === true;
    const leafId = this.#store.getLeaf(sessionId);
    // planned from the tool results' columns; only the results pruned are read whole
    const plan = planPruningOf(this.#store.getToolResultsOnPath(sessionId, leafId), this.pruneConfig());
    const entryIds = plan.candidates.map((c) => c.entryId);
    let tokensSavedInContext = 0;
    if (plan.prunedCount > 0) {
      const live = new Set(this.#store.getContextSummary(sessionId, leafId).entryIds);
      for (const c of plan.candidates) if (live.has(c.entryId)) tokensSavedInContext += c.savings;
      if (!dryRun) {
        // the pruned entries at their places on the path, as applyPruning reads them
        const onPath: SessionEntry[] = [];
        this.#store.getEntries(sessionId, entryIds).forEach((e, i) => {
          if (e) onPath[(plan.candidates[i] as { index: number }).index] = e;
        });
        const results = applyPruning(onPath, plan, Date.now());
        if (this.#options.applyPruning) await this.#options.applyPruning(sessionId, results, { expect: { leafId } });
        else this.#store.applyPruning(sessionId, results, { expect: { leafId } });
      }
    }
    const outcome: PruneOutcome = { prunedCount: plan.prunedCount, tokensSaved: plan.tokensSaved, tokensSavedInContext, entryIds, dryRun };
    if (plan.prunedCount > 0 || dryRun) this.#events.emit("pruning_done", { sessionId, prunedCount: plan.prunedCount, tokensSaved: plan.tokensSaved, dryRun, entryIds });
    return outcome;
  }

  // ------------------------------------------------------------------ conversation turns

  /** Aborts the running conversation turn of a session (its partial reply is kept, stopReason "aborted"). */
  abortTurn(sessionId: string): void {
    this.#prompts.get(sessionId)?.abort();
    this.#turns.get(sessionId)?.controller.abort();
  }

  /**
   * Sends `text` as a user message with the session's current context to the configured model
   * (streamed), appends the user and assistant messages, then prunes and runs the compaction checks.
   */
  prompt(sessionId: string, text: string): Promise<PromptOutcome> {
    return this.#prompt(sessionId, text, { synthetic: false, depth: 0 });
  }

  async #prompt(sessionId: string, text: string, options: { synthetic: boolean; depth: number }): Promise<PromptOutcome> {
    if (!this.modelConfigured) throw new EngineError("No model configured: set model.baseUrl and model.model in the settings (or --base-url and --model)");
    if (text.trim() === "") throw new EngineError("The prompt is empty");
    if (options.depth > 0) {
      // the auto-continue prompt runs inside the user's prompt and is aborted with it
      const signal = this.#prompts.get(sessionId)?.signal ?? new AbortController().signal;
      return this.#promptSteps(sessionId, text, options, signal);
    }
    if (this.#turns.has(sessionId) || this.#prompts.has(sessionId)) throw new EngineError("A turn is already running for this session");
    // registered before the first await: an abortTurn from now on reaches this prompt
    const controller = new AbortController();
    this.#prompts.set(sessionId, controller);
    try {
      return await this.#promptSteps(sessionId, text, options, controller.signal);
    } finally {
      if (this.#prompts.get(sessionId) === controller) this.#prompts.delete(sessionId);
    }
  }

  async #promptSteps(sessionId: string, text: string, options: { synthetic: boolean; depth: number }, signal: AbortSignal): Promise<PromptOutcome> {
    const running = this.#compactions.get(sessionId);
    if (running) await running.done.catch(() => undefined);
    // pre-prompt check with the last assistant message of the live context (aborted ones included)
    if (options.depth === 0 && !signal.aborted) {
      const last = [...this.#liveMessages(sessionId)].reverse().find((m): m is AssistantMessage => m.role === "assistant");
      await this.#checkCompaction(sessionId, last, false, false);
    }
    await this.#requireApiKey(); // before anything is appended
    // aborted before the user message was appended: nothing happened
    if (signal.aborted) throw new EngineError("Prompt cancelled");
    const content = [{ type: "text" as const, text }];
    const userMessage = withoutUndefined({ role: "user" as const, content, timestamp: Date.now(), synthetic: options.synthetic ? true : undefined });
    const userEntry = this.#store.appendEntry(sessionId, { type: "message", message: userMessage });
    this.#events.emit("leaf_changed", { sessionId, leafId: userEntry.id });
    let outcome = await this.#turnWithRetries(sessionId, userEntry.id, signal);
    // overflow recovery: compact, then send the turn once more
    const check = await this.#checkCompaction(sessionId, outcome.message, true, options.depth < 2);
    if (check === "retry" && !signal.aborted) {
      outcome = await this.#turnWithRetries(sessionId, userEntry.id, signal);
      await this.#checkCompaction(sessionId, outcome.message, true, false);
    }
    return outcome;
  }

  #liveMessages(sessionId: string) {
    const leafId = this.#store.getLeaf(sessionId);
    return buildSessionContext(this.#store.getContextEntries(sessionId, leafId), leafId).messages;
  }

  /**
   * One turn plus the generic retries of transient failures (triggers-and-hooks.md §2.3). A failed
   * reply that is retried is not appended (unlike pi, which keeps one error entry per attempt): the
   * session gets the final reply only, so a prompt that fails for good leaves one error entry. If
   * the retry is aborted during its delay, the held error is appended then.
   */
  async #turnWithRetries(sessionId: string, userEntryId: string, signal: AbortSignal): Promise<PromptOutcome> {
    const retry = this.#settings.get().retry;
    for (let attempt = 0; ; attempt++) {
      const window = this.#settings.get().model.contextWindow;
      const willRetry = (msg: AssistantMessage) => retry.enabled && attempt < retry.maxRetries && isRetryableAssistantError(msg, window);
      const outcome = await this.#turn(sessionId, userEntryId, signal, willRetry);
      const msg = outcome.message;
      if (!willRetry(msg)) {
        if (attempt > 0) {
          this.#events.emit("auto_retry_end", withoutUndefined({ sessionId, scope: "turn" as const, success: msg.stopReason !== "error", attempt, finalError: msg.stopReason === "error" ? msg.errorMessage : undefined }));
        }
        return outcome;
      }
      const delayMs = retry.baseDelayMs * 2 ** attempt;
      this.#events.emit("auto_retry_start", { sessionId, scope: "turn", attempt: attempt + 1, maxAttempts: retry.maxRetries, delayMs, errorMessage: msg.errorMessage ?? "" });
      const controller = new AbortController();
      const state: TurnState = { controller, discard: false };
      this.#turns.set(sessionId, state);
      const unlink = follow(signal, controller);
      try {
        await abortableSleep(delayMs, controller.signal);
      } catch {
        // no retry after all: the failed reply held back is the prompt's one error entry
        return state.discard ? outcome : this.#appendReply(sessionId, outcome);
      } finally {
        unlink();
        if (this.#turns.get(sessionId) === state) this.#turns.delete(sessionId);
      }
    }
  }

  #appendReply(sessionId: string, outcome: PromptOutcome): PromptOutcome {
    const entry = this.#store.appendEntry(sessionId, { type: "message", message: outcome.message });
    this.#events.emit("leaf_changed", { sessionId, leafId: entry.id });
    return { ...outcome, assistantEntryId: entry.id };
  }

  /** One model call; the reply is appended unless the turn was discarded or `holdBack(reply)` says it will be retried. */
  async #turn(sessionId: string, userEntryId: string, signal: AbortSignal, holdBack: (message: AssistantMessage) => boolean): Promise<PromptOutcome> {
    const settings = this.#settings.get();
    const controller = new AbortController();
    const state: TurnState = { controller, discard: false };
    this.#turns.set(sessionId, state);
    // an abort of the prompt (also one sent before this turn started) aborts the turn
    const unlink = follow(signal, controller);
    try {
      const apiKey = await this.#requireApiKey();
      // the context without trailing failed replies (they are kept in the session, not re-sent)
      const messages = [...this.#liveMessages(sessionId)];
      while (messages.length > 0) {
        const last = messages[messages.length - 1];
        if (last?.role === "assistant" && (last.stopReason === "error" || last.stopReason === "aborted")) messages.pop();
        else break;
      }
      this.#events.emit("turn_start", { sessionId, userEntryId, model: settings.model.model });
      const message = await streamTurn(convertToLlm(messages), {
        endpoint: { baseUrl: settings.model.baseUrl, apiKey },
        model: settings.model.model,
        provider: TURN_PROVIDER,
        systemPrompt: promptText("turnSystem"),
        maxTokens: settings.model.maxOutputTokens,
        signal: controller.signal,
        onDelta: (delta) => this.#events.emit("turn_delta", { sessionId, delta }),
      });
      let outcome: PromptOutcome = { message, userEntryId };
      if (!state.discard && !holdBack(message)) outcome = this.#appendReply(sessionId, outcome);
      this.#events.emit("turn_end", { sessionId, message, entryId: outcome.assistantEntryId });
      return outcome;
    } finally {
      unlink();
      if (this.#turns.get(sessionId) === state) this.#turns.delete(sessionId);
    }
  }

  // ------------------------------------------------------------------ tree navigation

  /** Aborts a running branch summary of a session (default: all). */
  abortBranchSummary(sessionId?: string): void {
    for (const [id, c] of this.#branchSummaries) if (sessionId === undefined || id === sessionId) c.abort();
  }

  /**
   * A branch switch without a summary. In the store the leaf moves; a pi / oh-my-pi file (the agent
   * resumes from its last line) also gets a `custom` entry of type "bonsai-branch" parented at the
   * new leaf, which adds nothing to any context (docs/DEVIATIONS.md), so the agent resumes there.
   */
  #moveLeaf(sessionId: string, oldLeafId: string | null, newLeafId: string | null): void {
    const session = this.#store.getSession(sessionId);
    if (session?.sourceFormat !== "pi-jsonl" || session.sourcePath === null || session.detached !== null) {
      this.#store.setLeaf(sessionId, newLeafId);
      return;
    }
    const body = { type: "custom" as const, customType: BRANCH_MARKER_TYPE, data: { from: oldLeafId, to: newLeafId } };
    this.#store.appendEntry(sessionId, body, { parentId: newLeafId, expect: { exists: newLeafId === null ? [] : [newLeafId] } });
  }

  /** navigateTree (branch-summary.md §1). A cancelled or aborted navigation changes nothing. */
  async navigateTree(sessionId: string, targetId: string, request: NavigateRequest = {}): Promise<NavigateOutcome> {
    const oldLeafId = this.#store.getLeaf(sessionId);
    if (targetId === oldLeafId) return { cancelled: false, leafId: oldLeafId };
    const target = this.#store.getEntry(sessionId, targetId);
    if (!target) throw new EngineError(`Entry ${targetId} not found`);
    if (this.#branchSummaries.has(sessionId)) throw new EngineError("A branch summary is already running for this session");
    // registered before the first await: an abortBranchSummary from now on reaches this navigation
    const controller = new AbortController();
    this.#branchSummaries.set(sessionId, controller);
    const signal = controller.signal;
    const summarize = request.summarize === true;
    const ctx = { sessionId };
    if (summarize) this.#events.emit("branch_summary_start", { sessionId, targetId });
    const endSummary = (payload: Omit<EngineEvents["branch_summary_end"], "sessionId" | "targetId">) => {
      if (summarize) this.#events.emit("branch_summary_end", withoutUndefined({ sessionId, targetId, ...payload }));
    };
    const aborted = (): NavigateOutcome => {
      endSummary({ cancelled: true, aborted: true });
      return { cancelled: true, aborted: true, leafId: oldLeafId };
    };
    try {
      await this.#hooksLoaded;
      if (signal.aborted) return aborted();
      // the two paths hold every entry the collection walks: no need to load the whole session
      const index = buildIndex([...this.#store.getPath(sessionId, oldLeafId), ...this.#store.getPath(sessionId, targetId)]);
      const { entries, commonAncestorId } = collectEntriesForBranchSummary(index, oldLeafId, targetId);
      const before = await this.#hooks.beforeTree(
        { type: "session_before_tree", preparation: { targetId, oldLeafId, commonAncestorId, entriesToSummarize: entries, userWantsSummary: summarize }, signal },
        ctx,
      );
      if (before?.cancel) {
        endSummary({ cancelled: true, aborted: false });
        return { cancelled: true, leafId: oldLeafId };
      }
      if (signal.aborted) return aborted();
      let summaryText: string | undefined;
      let summaryDetails: unknown;
      let fromExtension = false;
      if (summarize && before?.summary && typeof before.summary.summary === "string") {
        summaryText = before.summary.summary;
        summaryDetails = before.summary.details;
        fromExtension = true;
      } else if (summarize && entries.length > 0) {
        const settings = this.#settings.get();
        const summarizer = await this.#currentSummarizer();
        if (signal.aborted) return aborted();
        const outcome = await generateBranchSummary(entries, {
          summarizer,
          signal,
          customInstructions: request.instructions?.trim() || undefined,
          reserveTokens: settings.branchSummary.reserveTokens,
          contextWindow: this.modelConfigured ? settings.model.contextWindow : 0,
        });
        if (outcome.aborted || signal.aborted) return aborted();
        if (outcome.error !== undefined) throw new ModelError(outcome.error);
        summaryText = outcome.summary;
        const details: SummaryDetails = { readFiles: outcome.readFiles, modifiedFiles: outcome.modifiedFiles };
        if (outcome.offline) details.summarizer = "offline";
        summaryDetails = details;
      }
      if (signal.aborted) return aborted();
      let newLeafId: string | null = targetId;
      let editorText: string | undefined;
      if (target.type === "message" && target.message.role === "user") {
        newLeafId = target.parentId;
        editorText = userText(target.message.content);
      } else if (target.type === "custom_message") {
        newLeafId = target.parentId;
        editorText = userText(target.content);
      }
      let summaryEntry: BranchSummaryEntry | undefined;
      if (summaryText) {
        const body = withoutUndefined({ type: "branch_summary", fromId: newLeafId ?? "root", summary: summaryText, details: summaryDetails, fromExtension });
        // refused (nothing written) when the agent moved the leaf or the target left the session meanwhile
        const expect: CommitExpectation = { leafId: oldLeafId, exists: newLeafId === null ? [] : [newLeafId] };
        summaryEntry = this.#store.appendEntry(sessionId, body, { parentId: newLeafId, expect }) as BranchSummaryEntry;
      } else {
        this.#moveLeaf(sessionId, oldLeafId, newLeafId);
      }
      const leafId = this.#store.getLeaf(sessionId);
      this.#events.emit("leaf_changed", { sessionId, leafId });
      await this.#hooks.tree(
        withoutUndefined({ type: "session_tree" as const, newLeafId: leafId, oldLeafId, summaryEntry, fromExtension: summaryText ? fromExtension : undefined }),
        ctx,
      );
      endSummary({ cancelled: false, aborted: false, summaryEntry });
      return withoutUndefined({ cancelled: false, editorText, summaryEntry, leafId });
    } catch (error) {
      endSummary({ cancelled: false, aborted: false, errorMessage: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      this.#branchSummaries.delete(sessionId);
    }
  }
}

/** Aborts `controller` when `signal` aborts (at once if it already has); returns the unlink. */
function follow(signal: AbortSignal, controller: AbortController): () => void {
  if (signal.aborted) {
    controller.abort();
    return () => undefined;
  }
  const abort = () => controller.abort();
  signal.addEventListener("abort", abort, { once: true });
  return () => signal.removeEventListener("abort", abort);
}

/** Creates the engine; call `loadUserHooks()` to read the hook modules of the data directory. */
export function createEngine(options: CreateEngineOptions): Engine {
  return new Engine(options);
}
