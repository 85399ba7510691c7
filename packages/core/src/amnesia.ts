/**
 * The amnesia report: signs, in what an agent did after a compaction or a pruning, that it lost
 * something it needed. No model is asked; everything is read from the session.
 *
 * For a compaction C on a path (root -> the session's leaf, or the newest leaf below C):
 * - the summarized span: the entries after the previous compaction up to C's first kept entry;
 * - the kept part: from the first kept entry to C (still sent to the model: never a sign);
 * - after: the entries after C up to the next compaction (the time C's summary was the memory),
 *   except the messages the agent carried forward into its compacted history (Codex's
 *   replacement_history, marked `fromCompaction` by the reader): those are what the model kept,
 *   part of the kept part, never a sign.
 *
 * Findings (each names entries on both sides, before first):
 * - reread: a file read in the span (or listed in C's read files) read again after C, before the
 *   agent changed it after C, and not read in the kept part;
 * - repeatedCall: a tool call (other than read) with the same name and the same arguments as one
 *   of the span, not also in the kept part; calls made twice or more in the span itself are routine
 *   (test runs, status checks) and not counted;
 * - recurringError: a tool error of the span that a later identical call fixed there, whose
 *   signature (tool, first error line with numbers as #) comes back after C;
 * - restatedInstruction: a sentence of a user message after C of at least RESTATE_MIN_WORDS words
 *   whose word-bigram Dice similarity with a sentence the user wrote in the span is at least
 *   RESTATE_SIMILARITY (text lowercased, letters and digits only, paths and URLs left out), not
 *   also said in the kept part;
 * - droppedIdentifier: a path, URL, code symbol or error code present in the span and used after C
 *   (in the user's words, the agent's text or its tool-call arguments of at most
 *   USED_ARGUMENT_MAX_CHARS characters: names, not file contents), not in the kept part, and absent
 *   from C's summary.
 *
 * Score of a compaction (or pruning): Σ over kinds of weight × min(count, SCORE_CAP), weights
 * restatedInstruction 3, recurringError 3, reread 2, repeatedCall 2, droppedIdentifier 1; 0 means
 * no sign, the most is 55.
 *
 * A pruning (the tool results of one prunedAt on the active path) is read the same way, the pruned
 * results being the span and "after" starting where it ran: reread and repeatedCall only (the
 * pruned text is gone from the session, and pruning removes no user message).
 */
import type { AssistantMessage, CompactionEntry, SessionEntry, ToolResultMessage } from "./entries";
import { recoverFileLists } from "./file-ops";
import { buildIndex, childrenOf, defaultLeafId, getPath, type SessionIndex } from "./tree";
import { undoneCompactionIds } from "./undo-markers";
import { assistantOf, errorSignature, EntryReader, identifiersUsedLater, toolResultOf, type CallAt, type IdentifierUse, type Sentence } from "./amnesia-entries";
import { dice, summaryMentions, RESTATE_SIMILARITY } from "./amnesia-text";

export { extractIdentifiers, instructionSimilarity, RESTATE_MIN_WORDS, RESTATE_SIMILARITY, sentenceWords, summaryMentions, type Identifier, type IdentifierKind } from "./amnesia-text";
export { EntryReader, identifiersUsedLater, USED_ARGUMENT_MAX_CHARS, type IdentifierUse } from "./amnesia-entries";

export type AmnesiaKind = "reread" | "repeatedCall" | "recurringError" | "restatedInstruction" | "droppedIdentifier";

export interface AmnesiaFinding {
  kind: AmnesiaKind;
  /** entries on both sides: the earlier ones (span, or the compaction itself) first, then the later ones */
  entryIds: string[];
  detail: string;
}

export interface CompactionAmnesia {
  compactionId: string;
  score: number;
  findings: AmnesiaFinding[];
}

export interface PruningAmnesia {
  /** the entry after which the pruning ran */
  atEntryId: string;
  /** ms, the pruned results' prunedAt */
  prunedAt: number;
  prunedEntryIds: string[];
  score: number;
  findings: AmnesiaFinding[];
}

export interface AmnesiaReport {
  compactions: CompactionAmnesia[];
  prunings: PruningAmnesia[];
}

export const SCORE_CAP = 5;
export const SCORE_WEIGHTS: Readonly<Record<AmnesiaKind, number>> = {
  restatedInstruction: 3,
  recurringError: 3,
  reread: 2,
  repeatedCall: 2,
  droppedIdentifier: 1,
};

/** Σ weight × min(count, SCORE_CAP) over the findings' kinds. */
export function amnesiaScore(findings: readonly AmnesiaFinding[]): number {
  const counts = new Map<AmnesiaKind, number>();
  for (const f of findings) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  let score = 0;
  for (const [kind, count] of counts) score += SCORE_WEIGHTS[kind] * Math.min(count, SCORE_CAP);
  return score;
}

// ---------------------------------------------------------------- reading entries

interface Window {
  /** entries whose content the compaction or pruning took away */
  span: readonly SessionEntry[];
  /** entries still sent to the model afterwards */
  kept: readonly SessionEntry[];
  after: readonly SessionEntry[];
  /** the compaction entry (compactions only) */
  compaction?: CompactionEntry;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function rereads(w: Window, r: EntryReader): (AmnesiaFinding & { file: string })[] {
  const before = new Map<string, string[]>();
  for (const entry of w.span) for (const file of r.fileOps(entry).read) push(before, file, entry.id);
  const listed = w.compaction ? new Set(recoverFileLists(w.compaction).readFiles) : new Set<string>();
  for (const file of listed) if (!before.has(file)) before.set(file, [(w.compaction as CompactionEntry).id]);
  for (const entry of w.kept) for (const file of r.fileOps(entry).read) before.delete(file);
  const again = new Map<string, string[]>();
  const changed = new Set<string>();
  for (const entry of w.after) {
    const ops = r.fileOps(entry);
    for (const file of ops.read) if (before.has(file) && !changed.has(file)) push(again, file, entry.id);
    for (const file of ops.modified) changed.add(file);
  }
  return [...again].map(([file, later]) => ({
    file,
    kind: "reread" as const,
    entryIds: [...(before.get(file) as string[]), ...later],
    detail: `${file} read again ${later.length === 1 ? "once" : `${later.length} times`} after it had been read before${listed.has(file) ? " (and listed in the summary's read files)" : ""}`,
  }));
}

function repeatedCalls(w: Window, r: EntryReader): AmnesiaFinding[] {
  const spanCalls = new Map<string, CallAt[]>();
  for (const entry of w.span) for (const c of r.calls(entry)) if (c.call.name !== "read") push(spanCalls, c.key, c);
  for (const entry of w.kept) for (const c of r.calls(entry)) spanCalls.delete(c.key);
  const again = new Map<string, string[]>();
  for (const entry of w.after) {
    for (const c of r.calls(entry)) {
      const earlier = spanCalls.get(c.key);
      if (earlier && earlier.length === 1) push(again, c.key, entry.id);
    }
  }
  return [...again].map(([key, later]) => ({
    kind: "repeatedCall" as const,
    entryIds: [(spanCalls.get(key) as CallAt[])[0]!.entryId, ...later],
    detail: `${key.length > 200 ? `${key.slice(0, 199)}…` : key} called again with the same arguments`,
  }));
}

function recurringErrors(w: Window, r: EntryReader): AmnesiaFinding[] {
  // the call behind each result of the span, by tool call id
  const callById = new Map<string, CallAt>();
  for (const entry of w.span) for (const c of r.calls(entry)) callById.set(c.call.id, c);
  const fixed = new Map<string, { errorId: string; fixId: string }>();
  const open = new Map<string, { signature: string; entryId: string }>();
  for (const entry of w.span) {
    const result = toolResultOf(entry);
    const call = result ? callById.get(result.toolCallId) : undefined;
    if (!result || !call) continue;
    if (result.isError) open.set(call.key, { signature: errorSignature(result), entryId: entry.id });
    else {
      const error = open.get(call.key);
      if (error && !fixed.has(error.signature)) fixed.set(error.signature, { errorId: error.entryId, fixId: entry.id });
      open.delete(call.key);
    }
  }
  if (fixed.size === 0) return [];
  const findings: AmnesiaFinding[] = [];
  const reported = new Set<string>();
  for (const entry of w.after) {
    const result = toolResultOf(entry);
    if (!result?.isError) continue;
    const signature = errorSignature(result);
    const earlier = fixed.get(signature);
    if (!earlier || reported.has(signature)) continue;
    reported.add(signature);
    findings.push({ kind: "recurringError", entryIds: [earlier.errorId, earlier.fixId, entry.id], detail: `an error fixed before came back: ${signature}` });
  }
  return findings;
}

function restatedInstructions(w: Window, r: EntryReader): AmnesiaFinding[] {
  const span = w.span.flatMap((e) => r.userSentences(e));
  if (span.length === 0) return [];
  const kept = w.kept.flatMap((e) => r.userSentences(e));
  const findings: AmnesiaFinding[] = [];
  // the span's sentences by bigram: only those sharing one with a later sentence are compared
  const byBigram = new Map<string, Sentence[]>();
  for (const earlier of span) for (const g of earlier.bigrams) push(byBigram, g, earlier);
  for (const later of w.after.flatMap((e) => r.userSentences(e))) {
    let best: { sentence: Sentence; similarity: number } | undefined;
    const compared = new Set<Sentence>();
    for (const g of later.bigrams) {
      for (const earlier of byBigram.get(g) ?? []) {
        if (compared.has(earlier)) continue;
        compared.add(earlier);
        const similarity = dice(earlier.bigrams, later.bigrams);
        if (similarity >= RESTATE_SIMILARITY && (!best || similarity > best.similarity)) best = { sentence: earlier, similarity };
      }
    }
    if (!best || kept.some((k) => dice(k.bigrams, later.bigrams) >= RESTATE_SIMILARITY)) continue;
    findings.push({
      kind: "restatedInstruction",
      entryIds: [best.sentence.entryId, later.entryId],
      detail: `“${later.text}” restates “${best.sentence.text}” (similarity ${best.similarity.toFixed(2)})`,
    });
  }
  return findings;
}

/** `reread`: files already reported as read again (not reported twice) */
function droppedIdentifiers(w: Window, r: EntryReader, reread: ReadonlySet<string>): AmnesiaFinding[] {
  const summary = w.compaction?.summary ?? "";
  return identifiersUsedLater(w.span, w.after, w.kept, r)
    .filter((use) => !reread.has(use.identifier.value) && !summaryMentions(summary, use.identifier))
    .map((use) => ({
      kind: "droppedIdentifier" as const,
      entryIds: [use.spanEntryIds[0] as string, use.laterEntryIds[0] as string],
      detail: `${use.identifier.kind} ${use.identifier.value} was in the summarized part and is used later, but the summary does not mention it`,
    }));
}

// ---------------------------------------------------------------- windows

/** The path a compaction is judged on: to the session's leaf when the compaction is on it, else to its newest descendant leaf. */
function pathThrough(index: SessionIndex, compactionId: string, leafPath: readonly SessionEntry[]): SessionEntry[] {
  if (leafPath.some((e) => e.id === compactionId)) return [...leafPath];
  let newest = compactionId;
  let newestPosition = index.position.get(compactionId) ?? -1;
  const stack = [compactionId];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    for (const child of childrenOf(index, id)) {
      const position = index.position.get(child.id) ?? -1;
      if (position > newestPosition) {
        newest = child.id;
        newestPosition = position;
      }
      stack.push(child.id);
    }
  }
  return getPath(index, newest);
}

function compactionWindow(path: readonly SessionEntry[], c: number): Window {
  const compaction = path[c] as CompactionEntry;
  let previous = -1;
  for (let i = c - 1; i >= 0; i--) {
    if (path[i]?.type === "compaction") {
      previous = i;
      break;
    }
  }
  let next = path.length;
  for (let i = c + 1; i < path.length; i++) {
    if (path[i]?.type === "compaction") {
      next = i;
      break;
    }
  }
  let kept = c;
  for (let i = 0; i < c; i++) if (path[i]?.id === compaction.firstKeptEntryId) kept = i;
  const spanEnd = Math.max(previous + 1, kept);
  // what the agent carried forward into its compacted history (Codex's replacement_history) is kept,
  // not said again: it joins the kept part and leaves "after"
  const after = path.slice(c + 1, next);
  const carried = after.filter((e) => carriedForwardBy(e, compaction));
  const keptPart = path.slice(kept, c);
  if (carried.length === 0) return { span: path.slice(previous + 1, spanEnd), kept: keptPart, after, compaction };
  return { span: path.slice(previous + 1, spanEnd), kept: [...keptPart, ...carried], after: after.filter((e) => !carriedForwardBy(e, compaction)), compaction };
}

/** An entry the agent wrote into its context when it compacted (a reader marks it `fromCompaction`: the compaction's id). */
function carriedForwardBy(entry: SessionEntry, compaction: CompactionEntry): boolean {
  return (entry as { fromCompaction?: unknown }).fromCompaction === compaction.id;
}

function findingsOf(w: Window, kinds: "all" | "calls", r: EntryReader): AmnesiaFinding[] {
  const reread = rereads(w, r);
  const calls = [...reread.map(({ file: _file, ...finding }) => finding), ...repeatedCalls(w, r)];
  if (kinds === "calls") return calls;
  const rereadFiles = new Set(reread.map((f) => f.file));
  return [...calls, ...recurringErrors(w, r), ...restatedInstructions(w, r), ...droppedIdentifiers(w, r, rereadFiles)];
}

/**
 * The report of a session: every compaction entry (on the path through it) that is not undone
 * (undo-markers.ts) and every pruning on the active path. `leafId` defaults to the session's default
 * leaf (the last entry).
 */
export function amnesiaReport(entries: readonly SessionEntry[], leafId: string | null = defaultLeafId(entries)): AmnesiaReport {
  const index = buildIndex(entries);
  const leafPath = getPath(index, leafId);
  const reader = new EntryReader();
  const compactions: CompactionAmnesia[] = [];
  const undone = undoneCompactionIds(entries);
  for (const entry of entries) {
    if (entry.type !== "compaction" || index.byId.get(entry.id) !== entry || undone.has(entry.id)) continue;
    const path = pathThrough(index, entry.id, leafPath);
    const c = path.findIndex((e) => e.id === entry.id);
    const findings = findingsOf(compactionWindow(path, c), "all", reader);
    compactions.push({ compactionId: entry.id, score: amnesiaScore(findings), findings });
  }
  return { compactions, prunings: pruningReports(leafPath, reader) };
}

function pruningReports(path: readonly SessionEntry[], reader: EntryReader): PruningAmnesia[] {
  const groups = new Map<number, number[]>();
  path.forEach((entry, i) => {
    const prunedAt = toolResultOf(entry)?.prunedAt;
    if (typeof prunedAt === "number") groups.set(prunedAt, [...(groups.get(prunedAt) ?? []), i]);
  });
  const times = path.map((e) => Date.parse(e.timestamp));
  const events = [...groups]
    .map(([prunedAt, indexes]) => {
      let at = Math.max(...indexes);
      for (let i = 0; i < path.length; i++) if ((times[i] as number) <= prunedAt && i > at) at = i;
      return { prunedAt, indexes, at };
    })
    .sort((a, b) => a.at - b.at || a.prunedAt - b.prunedAt);
  return events.map((event, k) => {
    const nextEvent = events[k + 1]?.at ?? path.length - 1;
    let end = path.length;
    for (let i = event.at + 1; i < path.length; i++) {
      if (path[i]?.type === "compaction" || i > nextEvent) {
        end = i;
        break;
      }
    }
    // the pruned results stand for the span through the calls that produced them
    const pruned = new Set(event.indexes.map((i) => (toolResultOf(path[i] as SessionEntry) as ToolResultMessage).toolCallId));
    const span = path.slice(0, event.at + 1).filter((e) => reader.calls(e).some((c) => pruned.has(c.call.id)));
    const onlyPruned = span.map((e) => {
      const message = assistantOf(e) as AssistantMessage;
      return { ...e, message: { ...message, content: message.content.filter((b) => b?.type !== "toolCall" || pruned.has(b.id)) } } as SessionEntry;
    });
    const findings = findingsOf({ span: onlyPruned, kept: [], after: path.slice(event.at + 1, end) }, "calls", reader);
    return {
      atEntryId: (path[event.at] as SessionEntry).id,
      prunedAt: event.prunedAt,
      prunedEntryIds: event.indexes.map((i) => (path[i] as SessionEntry).id),
      score: amnesiaScore(findings),
      findings,
    };
  });
}

/**
 * The "absent from the summary" check of a summary not yet appended (a dry run): identifiers of
 * the entries it summarizes that the kept entries (what the agent goes on with) use, and that the
 * summary does not mention. The same rule as droppedIdentifier, with the kept part as "later".
 */
export function summaryIdentifierCandidates(summarized: readonly SessionEntry[], kept: readonly SessionEntry[]): IdentifierUse[] {
  return identifiersUsedLater(summarized, kept);
}

/** The candidates a summary text does not mention. */
export function missingFromSummary(summary: string, candidates: readonly IdentifierUse[]): IdentifierUse[] {
  return candidates.filter((c) => !summaryMentions(summary, c.identifier));
}
