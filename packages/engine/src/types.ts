/** The engine's public types: what it needs of a store, how a host creates it, and what its operations return. */
import type {
  AssistantMessage,
  BonsaiSettings,
  BranchSummaryEntry,
  CompactionEntry,
  ContextSummary,
  MessageEntry,
  PruneConfig,
  SessionEntry,
  SettingsPatch,
  ToolResultOnPath,
} from "@bonsai/core";
import type { Summarizer } from "@bonsai/llm";
import type { CompactionResult } from "./compact";
import type { HookHandlers } from "./hooks";

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
  /** the rewrite of pruned outputs (and the session's file): a host with a store worker runs it there, hence the promise */
  applyPruning(sessionId: string, results: readonly { entryId: string; message: MessageEntry["message"] & { role: "toolResult" } }[], options?: { expect?: CommitExpectation }): number | Promise<number>;
  getSettingsJson(): unknown;
  saveSettingsJson(value: unknown): void;
}

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
