/**
 * Compaction planning (spec: compaction.md §5): what a compaction of the current branch would
 * summarize, what it keeps, and which files the summary lists. Pure and linear in the path length.
 */
import type { AgentMessage, CompactionEntry, SessionEntry, Usage } from "./entries";
import type { CompactionSettings } from "./settings";
import { cutPointOfRows, getCompactionMessageFromEntry, planRowsOf, PLAN_COMPACTION, PLAN_GIVES_MESSAGE, type PlanRows } from "./cut-point";
import { addFileListDetails, computeFileLists, createFileOperations, extractFileOpsFromMessage, type FileOperations } from "./file-ops";
import { IdList } from "./id-list";
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

/** What a compaction plan decides, without the messages (outlineCompaction). */
export interface CompactionOutline {
  firstKeptEntryId: string;
  isSplitTurn: boolean;
  tokensBefore: number;
  /** a store's reads give them as the text it read them as (IdList) */
  summarizeEntryIds: string[] | IdList;
  turnPrefixEntryIds: string[];
  keptEntryIds: string[];
  /** the number of messages kept (recentMessages) */
  recentMessageCount: number;
  /** index of the previous compaction on the path, -1 when none */
  previousCompactionIndex: number;
  boundaryStart: number;
  firstKeptEntryIndex: number;
  turnStartIndex: number;
  historyEnd: number;
  keepRecentTokens: number;
  estimatedWindowTokens?: number;
}

/**
 * The ids of a path's rows as planning lists them: a plan names the first kept row, the rows kept
 * and the rows summarized, so only those are asked for (a store reads them from an index instead of
 * holding every id).
 */
export interface PlanRowIds {
  /** the id of row `i` */
  at(i: number): string | undefined;
  /** the ids of the rows [start, end) */
  range(start: number, end: number): string[];
  /** the ids of the rows [start, end) that give a message (PLAN_GIVES_MESSAGE), in order */
  messages(start: number, end: number): string[];
  /** messages(start, end), as a store reads a long list (IdList: no string per id) */
  messageList(start: number, end: number): string[] | IdList;
}

/** A path (root -> leaf, or from a compaction on) as planning reads it: plan rows (cut-point.ts) and their ids. */
export interface CompactionRows extends PlanRows {
  ids: PlanRowIds;
}

/** PlanRowIds of every row's id, `ids`, with the rows' plan bits `kinds` */
export function planRowIdsOf(ids: readonly string[], kinds: ArrayLike<number>): PlanRowIds {
  return {
    at: (i) => ids[i],
    range: (start, end) => ids.slice(start, end),
    messages: (start, end) => {
      const out: string[] = [];
      for (let i = start; i < end; i++) if ((kinds[i] as number) & PLAN_GIVES_MESSAGE) out.push(ids[i] as string);
      return out;
    },
    messageList(start, end) {
      return this.messages(start, end);
    },
  };
}

/** the number of rows in [start, end) that give a message */
function recentMessages(kinds: ArrayLike<number>, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) if ((kinds[i] as number) & PLAN_GIVES_MESSAGE) n++;
  return n;
}

/**
 * prepareCompaction's decisions from a path's rows and its last assistant usage (getLastAssistantUsage
 * of the path): the cut, the ids of what is summarized and kept, the figures. `undefined` when
 * prepareCompaction plans nothing.
 */
export function outlineCompaction(rows: CompactionRows, lastUsage: Usage | undefined, settings: CompactionPlanSettings): CompactionOutline | undefined {
  const { kinds, tokens, ids } = rows;
  const count = kinds.length;
  if (count === 0 || (kinds[count - 1] as number) & PLAN_COMPACTION) return undefined;

  let previousCompactionIndex = count - 1;
  while (previousCompactionIndex >= 0 && !((kinds[previousCompactionIndex] as number) & PLAN_COMPACTION)) previousCompactionIndex--;
  const boundaryStart = previousCompactionIndex + 1;
  const tokensBefore = lastUsage ? calculateContextTokens(lastUsage) : 0;

  let keepRecentTokens = settings.keepRecentTokens;
  let estimatedWindowTokens: number | undefined;
  if (lastUsage) {
    estimatedWindowTokens = 0;
    for (let i = boundaryStart; i < count; i++) estimatedWindowTokens += tokens[i] as number;
    const promptTokens = calculatePromptTokens(lastUsage);
    const ratio = estimatedWindowTokens > 0 ? promptTokens / estimatedWindowTokens : 0;
    if (Number.isFinite(ratio) && ratio > 1) keepRecentTokens = Math.max(1, Math.floor(settings.keepRecentTokens / ratio));
  }

  const cut = cutPointOfRows(rows, boundaryStart, count, keepRecentTokens);
  const firstKeptEntryId = ids.at(cut.firstKeptEntryIndex);
  if (!firstKeptEntryId) return undefined;
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const outline: CompactionOutline = {
    firstKeptEntryId,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore,
    summarizeEntryIds: ids.messageList(boundaryStart, historyEnd),
    turnPrefixEntryIds: cut.isSplitTurn ? ids.messages(cut.turnStartIndex, cut.firstKeptEntryIndex) : [],
    keptEntryIds: ids.range(cut.firstKeptEntryIndex, count),
    recentMessageCount: recentMessages(kinds, cut.firstKeptEntryIndex, count),
    previousCompactionIndex,
    boundaryStart,
    firstKeptEntryIndex: cut.firstKeptEntryIndex,
    turnStartIndex: cut.turnStartIndex,
    historyEnd,
    keepRecentTokens,
  };
  if (estimatedWindowTokens !== undefined) outline.estimatedWindowTokens = estimatedWindowTokens;
  return outline;
}

/**
 * What the CLI and the UI show of a compaction plan (a store answers it from columns, a reader from
 * prepareCompaction: summarizeCompaction).
 */
export interface CompactionPlanSummary {
  firstKeptEntryId: string;
  isSplitTurn: boolean;
  summarizeEntryIds: string[] | IdList;
  turnPrefixEntryIds: string[];
  keptEntryIds: string[];
  recentMessageCount: number;
  tokensBefore: number;
  keepRecentTokens: number;
  previousCompactionId?: string;
  hasPreviousSummary: boolean;
  readFiles: string[];
  modifiedFiles: string[];
}

/** The summary of a preparation. */
export function summarizeCompaction(preparation: CompactionPreparation<CompactionPlanSettings>): CompactionPlanSummary {
  return planSummary(
    { ...preparation, recentMessageCount: preparation.recentMessages.length },
    preparation.fileOps,
    preparation.previousSummary !== undefined,
    preparation.previousCompactionId,
  );
}

/**
 * The summary of an outline (what summarizeCompaction gives of the preparation built on it), with
 * the file operations of its summarized part and its previous compaction: a plan made from a
 * path's rows, without its messages.
 */
export function summarizeOutline(outline: CompactionOutline, fileOps: FileOperations, previous: CompactionEntry | undefined): CompactionPlanSummary {
  return planSummary(outline, fileOps, previous !== undefined && previous.summary !== undefined, previous?.id);
}

type PlanFigures = Pick<
  CompactionOutline,
  "firstKeptEntryId" | "isSplitTurn" | "summarizeEntryIds" | "turnPrefixEntryIds" | "keptEntryIds" | "recentMessageCount" | "tokensBefore" | "keepRecentTokens"
>;

function planSummary(figures: PlanFigures, fileOps: FileOperations, hasPreviousSummary: boolean, previousCompactionId: string | undefined): CompactionPlanSummary {
  const summary: CompactionPlanSummary = {
    firstKeptEntryId: figures.firstKeptEntryId,
    isSplitTurn: figures.isSplitTurn,
    summarizeEntryIds: figures.summarizeEntryIds,
    turnPrefixEntryIds: figures.turnPrefixEntryIds,
    keptEntryIds: figures.keptEntryIds,
    recentMessageCount: figures.recentMessageCount,
    tokensBefore: figures.tokensBefore,
    keepRecentTokens: figures.keepRecentTokens,
    hasPreviousSummary,
    ...computeFileLists(fileOps),
  };
  if (previousCompactionId !== undefined) summary.previousCompactionId = previousCompactionId;
  return summary;
}

/** the compaction-variant messages of path[start, end) */
function collectMessages(path: readonly SessionEntry[], start: number, end: number): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (let i = start; i < end; i++) {
    const entry = path[i];
    const message = entry && getCompactionMessageFromEntry(entry);
    if (message) messages.push(message);
  }
  return messages;
}

/**
 * Plans a compaction of `pathEntries` (the current branch, root -> leaf). `undefined` when the leaf
 * is already a compaction, the path is empty, or the first kept entry has no id.
 */
export function prepareCompaction<S extends CompactionPlanSettings>(
  pathEntries: readonly SessionEntry[],
  settings: S,
): CompactionPreparation<S> | undefined {
  const planRows = planRowsOf(pathEntries);
  const rows: CompactionRows = { ...planRows, ids: planRowIdsOf(pathEntries.map((e) => e.id), planRows.kinds) };
  const outline = outlineCompaction(rows, getLastAssistantUsage(pathEntries), settings);
  if (!outline) return undefined;
  const { boundaryStart, historyEnd, firstKeptEntryIndex, turnStartIndex, isSplitTurn } = outline;
  const history = collectMessages(pathEntries, boundaryStart, historyEnd);
  const prefix = isSplitTurn ? collectMessages(pathEntries, turnStartIndex, firstKeptEntryIndex) : [];
  const previousCompaction = outline.previousCompactionIndex >= 0 ? (pathEntries[outline.previousCompactionIndex] as CompactionEntry) : undefined;

  const fileOps = createFileOperations();
  if (previousCompaction) addPreviousFileLists(previousCompaction, fileOps);
  for (const message of history) extractFileOpsFromMessage(message, fileOps);
  for (const message of prefix) extractFileOpsFromMessage(message, fileOps);

  const preparation: CompactionPreparation<S> = {
    firstKeptEntryId: outline.firstKeptEntryId,
    messagesToSummarize: history,
    turnPrefixMessages: prefix,
    recentMessages: collectMessages(pathEntries, firstKeptEntryIndex, pathEntries.length),
    isSplitTurn,
    tokensBefore: outline.tokensBefore,
    fileOps,
    settings,
    // planRowIdsOf lists them as an array
    summarizeEntryIds: IdList.array(outline.summarizeEntryIds),
    turnPrefixEntryIds: outline.turnPrefixEntryIds,
    keptEntryIds: outline.keptEntryIds,
    boundaryStart,
    firstKeptEntryIndex,
    turnStartIndex,
    historyEnd,
    keepRecentTokens: outline.keepRecentTokens,
  };
  if (previousCompaction) {
    if (typeof previousCompaction.summary === "string") preparation.previousSummary = previousCompaction.summary;
    preparation.previousCompactionId = previousCompaction.id;
  }
  if (outline.estimatedWindowTokens !== undefined) preparation.estimatedWindowTokens = outline.estimatedWindowTokens;
  return preparation;
}

/** A previous compaction's file lists count for the next one (§6.2), unless an extension wrote it. */
export function addPreviousFileLists(previous: CompactionEntry, fileOps: FileOperations): void {
  if (!previous.fromExtension && previous.details) addFileListDetails(previous.details, fileOps);
}
