/**
 * The session entry model (spec: session-format.md).
 *
 * Entries are kept as the plain JSON objects read from the file: every field a
 * writer put there survives a round trip, including fields this model does not
 * name (hence the index signatures). Optional fields are absent, never null.
 */

export const CURRENT_SESSION_VERSION = 3;

// ---------------------------------------------------------------- content blocks

export interface TextContent {
  type: "text";
  text: string;
  textSignature?: string;
}

export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  thinkingSignature?: string;
}

export interface ImageContent {
  type: "image";
  /** base64, or an omp blob reference `blob:sha256:<hex>` */
  data: string;
  mimeType: string;
}

export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  thoughtSignature?: string;
}

export type UserContentBlock = TextContent | ImageContent;
export type AssistantContentBlock = TextContent | ThinkingContent | ToolCall;

// ---------------------------------------------------------------- usage

export interface UsageCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** absent in older files: fall back to the sum of the components */
  totalTokens?: number;
  cost?: UsageCost;
  [extra: string]: unknown;
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

// ---------------------------------------------------------------- messages (spec §5.2)

export interface UserMessage {
  role: "user";
  content: string | UserContentBlock[];
  timestamp: number;
  synthetic?: boolean;
  [extra: string]: unknown;
}

export interface AssistantMessage {
  role: "assistant";
  content: AssistantContentBlock[];
  api: string;
  provider: string;
  model: string;
  usage: Usage;
  stopReason: StopReason;
  errorMessage?: string;
  timestamp: number;
  duration?: number;
  ttft?: number;
  [extra: string]: unknown;
}

export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: UserContentBlock[];
  details?: unknown;
  isError: boolean;
  timestamp: number;
  /** set by pruning (ms) */
  prunedAt?: number;
  [extra: string]: unknown;
}

export interface OutputMeta {
  [key: string]: unknown;
}

export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  exitCode?: number;
  cancelled: boolean;
  truncated: boolean;
  meta?: OutputMeta;
  fullOutputPath?: string;
  timestamp: number;
  excludeFromContext?: boolean;
  [extra: string]: unknown;
}

export interface PythonExecutionMessage {
  role: "pythonExecution";
  code: string;
  output: string;
  exitCode?: number;
  cancelled: boolean;
  truncated: boolean;
  meta?: OutputMeta;
  timestamp: number;
  excludeFromContext?: boolean;
  [extra: string]: unknown;
}

export interface FileMentionFile {
  path: string;
  content: string;
  lineCount?: number;
  byteSize?: number;
  skippedReason?: "tooLarge";
  image?: ImageContent;
}

export interface FileMentionMessage {
  role: "fileMention";
  files: FileMentionFile[];
  timestamp: number;
  [extra: string]: unknown;
}

export interface CustomMessage {
  role: "custom" | "hookMessage";
  customType: string;
  content: string | UserContentBlock[];
  display: boolean;
  details?: unknown;
  timestamp: number;
  [extra: string]: unknown;
}

/** In-memory only: derived from branch_summary entries. */
export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string;
  timestamp: number;
}

/** In-memory only: derived from compaction entries. */
export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  shortSummary?: string;
  tokensBefore: number;
  timestamp: number;
}

export type AgentMessage =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | PythonExecutionMessage
  | FileMentionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage;

export type AgentRole = AgentMessage["role"];

/** What convertToLlm produces: only these three roles reach a model. */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage;

// ---------------------------------------------------------------- header and entries

export interface SessionHeader {
  type: "session";
  /** absent in v1 files */
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  title?: string;
  parentSession?: string;
  [extra: string]: unknown;
}

interface EntryBase {
  id: string;
  parentId: string | null;
  /** ISO-8601 */
  timestamp: string;
  [extra: string]: unknown;
}

export interface MessageEntry extends EntryBase {
  type: "message";
  message: AgentMessage;
}

export interface ThinkingLevelChangeEntry extends EntryBase {
  type: "thinking_level_change";
  thinkingLevel: string;
}

export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  /** omp: "provider/modelId" */
  model?: string;
  role?: string;
  /** pi-mono shape */
  provider?: string;
  modelId?: string;
}

export interface CompactionEntry extends EntryBase {
  type: "compaction";
  summary: string;
  shortSummary?: string;
  firstKeptEntryId?: string;
  tokensBefore: number;
  details?: unknown;
  preserveData?: Record<string, unknown>;
  fromExtension?: boolean;
  /** pi-mono name of fromExtension */
  fromHook?: boolean;
}

export interface BranchSummaryEntry extends EntryBase {
  type: "branch_summary";
  fromId: string;
  summary: string;
  details?: unknown;
  fromExtension?: boolean;
  fromHook?: boolean;
}

export interface CustomEntry extends EntryBase {
  type: "custom";
  customType: string;
  data?: unknown;
}

export interface CustomMessageEntry extends EntryBase {
  type: "custom_message";
  customType: string;
  content: string | UserContentBlock[];
  display: boolean;
  details?: unknown;
}

export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  label?: string;
}

export interface TtsrInjectionEntry extends EntryBase {
  type: "ttsr_injection";
  injectedRules: string[];
}

export interface SessionInitEntry extends EntryBase {
  type: "session_init";
  systemPrompt: string;
  task: string;
  tools: string[];
  outputSchema?: unknown;
}

export interface ModeChangeEntry extends EntryBase {
  type: "mode_change";
  mode: string;
  data?: Record<string, unknown>;
}

export interface SessionInfoEntry extends EntryBase {
  type: "session_info";
  name?: string;
}

/** Any entry type this model does not know: preserved, ignored by context building. */
export interface UnknownEntry extends EntryBase {
  type: string;
}

export type KnownSessionEntry =
  | MessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | TtsrInjectionEntry
  | SessionInitEntry
  | ModeChangeEntry
  | SessionInfoEntry;

export type SessionEntry = KnownSessionEntry;
export type EntryType = KnownSessionEntry["type"];

export const KNOWN_ENTRY_TYPES: readonly EntryType[] = [
  "message",
  "thinking_level_change",
  "model_change",
  "compaction",
  "branch_summary",
  "custom",
  "custom_message",
  "label",
  "ttsr_injection",
  "session_init",
  "mode_change",
  "session_info",
];

/** File-level details written by internal compactions and branch summaries. */
export interface FileListDetails {
  readFiles: string[];
  modifiedFiles: string[];
}

// ---------------------------------------------------------------- type guards

export function isMessageEntry(e: { type: string } | undefined): e is MessageEntry {
  return e?.type === "message";
}

export function isCompactionEntry(e: { type: string } | undefined): e is CompactionEntry {
  return e?.type === "compaction";
}

export function isBranchSummaryEntry(e: { type: string } | undefined): e is BranchSummaryEntry {
  return e?.type === "branch_summary";
}

export function isCustomMessageEntry(e: { type: string } | undefined): e is CustomMessageEntry {
  return e?.type === "custom_message";
}

export function isLabelEntry(e: { type: string } | undefined): e is LabelEntry {
  return e?.type === "label";
}

/** An entry written by an extension or hook (display only: omp computations use fromExtension). */
export function isFromExtension(e: CompactionEntry | BranchSummaryEntry): boolean {
  return e.fromExtension === true || e.fromHook === true;
}
