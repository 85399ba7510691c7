/**
 * Compaction planning (spec: compaction.md §5): what a compaction of the current branch would
 * summarize, what it keeps, and which files the summary lists. Pure and linear in the path length.
 */
import type { AgentMessage, CompactionEntry, SessionEntry } from "./entries";
import type { CompactionSettings } from "./settings";
import { estimateEntriesTokens, findCutPoint, getCompactionMessageFromEntry } from "./cut-point";
import { addFileListDetails, createFileOperations, extractFileOpsFromMessage, type FileOperations } from "./file-ops";
import { calculateContextTokens, calculatePromptTokens, getLastAssistantUsage } from "./tokens";

/** What planning needs of the settings; `keepRecentTokens` is the only value it reads. */
export type CompactionPlanSettings = Pick<CompactionSettings, "keepRecentTokens"> & Partial<CompactionSettings>;

export interface CompactionPreparation<S extends CompactionPlanSettings = CompactionSettings> {
  // ---- the reference's CompactionPreparation
  firstKeptEntryId: string;
  messagesToSummarize: AgentMessage[];
  turnPrefixMessages: AgentMessage[];
  recentMessages: AgentMessage[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  fileOps: FileOperations;
  settings: S;
  // ---- what the CLI and the UI show of the plan
  /** ids of the entries whose messages are summarized, in path order (one per message) */
  summarizeEntryIds: string[];
  /** ids of the entries of the split turn's prefix (one per message) */
  turnPrefixEntryIds: string[];
  /** ids of every entry from firstKeptEntryId to the leaf (metadata included) */
  keptEntryIds: string[];
  /** index in the path of the first entry after the previous compaction */
  boundaryStart: number;
  firstKeptEntryIndex: number;
  /** -1 when the cut does not split a turn */
  turnStartIndex: number;
  /** end (exclusive) of the summarized history: turnStartIndex for a split turn, else firstKeptEntryIndex */
  historyEnd: number;
  /** id of the previous compaction on the path, if any */
  previousCompactionId?: string;
  /** keepRecentTokens after the usage-ratio adaptation (estimate units) */
  keepRecentTokens: number;
  /** estimate of the messages after the previous compaction (only computed when a usage exists) */
  estimatedWindowTokens?: number;
}

function lastCompactionIndex(path: readonly SessionEntry[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]?.type === "compaction") return i;
  return -1;
}

interface CollectedMessages {
  messages: AgentMessage[];
  entryIds: string[];
}

function collectMessages(path: readonly SessionEntry[], start: number, end: number): CollectedMessages {
  const messages: AgentMessage[] = [];
  const entryIds: string[] = [];
  for (let i = start; i < end; i++) {
    const entry = path[i];
    const message = entry && getCompactionMessageFromEntry(entry);
    if (!entry || !message) continue;
    messages.push(message);
    entryIds.push(entry.id);
  }
  return { messages, entryIds };
}

/**
 * Plans a compaction of `pathEntries` (the current branch, root -> leaf). `undefined` when the leaf
 * is already a compaction, the path is empty, or the first kept entry has no id.
 */
export function prepareCompaction<S extends CompactionPlanSettings>(
  pathEntries: readonly SessionEntry[],
  settings: S,
): CompactionPreparation<S> | undefined {
  const last = pathEntries[pathEntries.length - 1];
  if (!last || last.type === "compaction") return undefined;

  const prevCompactionIndex = lastCompactionIndex(pathEntries);
  const boundaryStart = prevCompactionIndex + 1;
  const boundaryEnd = pathEntries.length;

  const lastUsage = getLastAssistantUsage(pathEntries);
  const tokensBefore = lastUsage ? calculateContextTokens(lastUsage) : 0;

  let keepRecentTokens = settings.keepRecentTokens;
  let estimatedWindowTokens: number | undefined;
  if (lastUsage) {
    estimatedWindowTokens = estimateEntriesTokens(pathEntries, boundaryStart, boundaryEnd);
    const promptTokens = calculatePromptTokens(lastUsage);
    const ratio = estimatedWindowTokens > 0 ? promptTokens / estimatedWindowTokens : 0;
    if (Number.isFinite(ratio) && ratio > 1) keepRecentTokens = Math.max(1, Math.floor(settings.keepRecentTokens / ratio));
  }

  const cut = findCutPoint(pathEntries, boundaryStart, boundaryEnd, keepRecentTokens);
  const firstKept = pathEntries[cut.firstKeptEntryIndex];
  if (!firstKept?.id) return undefined;

  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const history = collectMessages(pathEntries, boundaryStart, historyEnd);
  const prefix = cut.isSplitTurn
    ? collectMessages(pathEntries, cut.turnStartIndex, cut.firstKeptEntryIndex)
    : { messages: [], entryIds: [] };
  const recent = collectMessages(pathEntries, cut.firstKeptEntryIndex, boundaryEnd);
  const keptEntryIds = pathEntries.slice(cut.firstKeptEntryIndex).map((e) => e.id);

  const previousCompaction = prevCompactionIndex >= 0 ? (pathEntries[prevCompactionIndex] as CompactionEntry) : undefined;

  const fileOps = createFileOperations();
  if (previousCompaction && !previousCompaction.fromExtension && previousCompaction.details) {
    addFileListDetails(previousCompaction.details, fileOps);
  }
  for (const message of history.messages) extractFileOpsFromMessage(message, fileOps);
  for (const message of prefix.messages) extractFileOpsFromMessage(message, fileOps);

  const preparation: CompactionPreparation<S> = {
    firstKeptEntryId: firstKept.id,
    messagesToSummarize: history.messages,
    turnPrefixMessages: prefix.messages,
    recentMessages: recent.messages,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore,
    fileOps,
    settings,
    summarizeEntryIds: history.entryIds,
    turnPrefixEntryIds: prefix.entryIds,
    keptEntryIds,
    boundaryStart,
    firstKeptEntryIndex: cut.firstKeptEntryIndex,
    turnStartIndex: cut.turnStartIndex,
    historyEnd,
    keepRecentTokens,
  };
  if (previousCompaction) {
    preparation.previousSummary = previousCompaction.summary;
    preparation.previousCompactionId = previousCompaction.id;
  }
  if (estimatedWindowTokens !== undefined) preparation.estimatedWindowTokens = estimatedWindowTokens;
  return preparation;
}
