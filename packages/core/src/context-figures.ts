/**
 * The one answer to "what does the model see from this node" (DESIGN rule 11): the context that
 * buildSessionContext gives for a leaf, its estimated size, and — separately — the last usage a
 * model reported on that path, with its age relative to the latest compaction. Every figure the app
 * shows (inspector, What the model sees, Compact panel, dry run, chart, session list) comes from
 * here, so the same node shows the same numbers everywhere.
 *
 * The estimate is the spec's chars/4 per message (compaction.md §2.4), summed over the messages of
 * the context (the compaction summary counts as its summary). The same rule runs on whole entries
 * (`contextOf`) and on the tree skeleton, whose nodes carry each entry's estimate
 * (`contextTokensOfTree`, one pass over a whole tree); a test walks every node kind of generated
 * sessions to show the two agree.
 */
import { buildSessionContext, compactionSummaryMessage, messageFromEntry, type SessionContext } from "./context";
import type { AssistantMessage, CompactionEntry, SessionEntry } from "./entries";
import { calculateContextTokens, estimateTokens, isOlderThanLatestCompaction, reportedContextTokens } from "./tokens";
import type { SkeletonNode } from "./skeleton";
import { getPath } from "./tree";
import { windowEvidenceOf, type WindowEvidence } from "./model-window";

/** What the context rule needs of one entry: its id, whether it is a compaction, its message's estimate. */
export interface ContextStep {
  id: string;
  /** entry type ("compaction" starts a new context) */
  type: string;
  /** estimateTokens of the message the entry adds to a context (a compaction: its summary); 0 for metadata */
  tokens: number;
  /** a compaction's firstKeptEntryId */
  firstKeptEntryId?: string;
}

/** The estimate an entry adds to a context: its message's, a compaction's summary, 0 for metadata. */
export function entryContextTokens(entry: SessionEntry): number {
  if (entry.type === "compaction") return estimateTokens(compactionSummaryMessage(entry as CompactionEntry));
  const message = messageFromEntry(entry);
  return message ? estimateTokens(message) : 0;
}

export function contextStepOfEntry(entry: SessionEntry): ContextStep {
  const step: ContextStep = { id: entry.id, type: entry.type, tokens: entryContextTokens(entry) };
  const kept = (entry as { firstKeptEntryId?: unknown }).firstKeptEntryId;
  if (entry.type === "compaction" && typeof kept === "string") step.firstKeptEntryId = kept;
  return step;
}

/** How the last reported usage relates to the latest compaction on the path. */
export type UsageAge =
  /** there is no compaction on the path */
  | "no-compaction"
  /** reported after the latest compaction: it measures the current context */
  | "after-compaction"
  /** reported before the latest compaction: it measures the context that compaction replaced */
  | "before-compaction";

export interface ReportedUsage {
  /** what the model reported (calculateContextTokens of its usage) */
  tokens: number;
  /** the assistant entry that carries it */
  entryId: string;
  age: UsageAge;
  /** estimate of the messages after that reply (the agent adds them to the usage, compaction.md §2.6) */
  trailingTokens: number;
  /** the model that reported it, as the session records it ("" when it does not) */
  model: string;
}

export interface ContextFigures {
  /** the messages of the context in order, with the entry each comes from (a compaction's id for its summary) */
  context: SessionContext;
  /** estimateTokens per message (same order) */
  messageTokens: number[];
  /** the estimate: the sum of messageTokens */
  tokens: number;
  /** the last usage reported on the path, null when no reply carries one */
  usage: ReportedUsage | null;
  /** the tokensBefore the path's latest compaction records (null: no compaction on the path); evidence of the window */
  compactionTokensBefore: number | null;
}

/** The figures a reader gives without the messages (the store answers them from its columns). */
export type FiguresOfPath = Pick<ContextFigures, "tokens" | "usage" | "compactionTokensBefore">;

/**
 * The context the model sees from `leafId` over `entries` (a root -> leaf path, or the store's
 * context entries for it): messages, estimate, and the last reported usage with its age.
 */
export function contextOf(entries: readonly SessionEntry[], leafId: string | null): ContextFigures {
  const byId = new Map<string, SessionEntry>();
  for (const e of entries) byId.set(e.id, e);
  const context = buildSessionContext(entries, leafId, byId);
  const messageTokens = context.messages.map((m) => estimateTokens(m));
  let tokens = 0;
  for (const t of messageTokens) tokens += t;
  const leaf = leafId === null ? undefined : byId.has(leafId) ? leafId : entries[entries.length - 1]?.id;
  const path = leaf === undefined ? [] : getPath({ byId }, leaf);
  return { context, messageTokens, tokens, usage: lastReportedUsage(path, context, messageTokens), compactionTokensBefore: latestTokensBefore(path) };
}

function latestTokensBefore(path: readonly SessionEntry[]): number | null {
  for (let i = path.length - 1; i >= 0; i--) if ((path[i] as SessionEntry).type === "compaction") return (path[i] as CompactionEntry).tokensBefore;
  return null;
}

/** The last assistant reply on the path that reports a usage (reportedContextTokens; aborted and error replies included, as §2.6 does, when they report one). */
function lastReportedUsage(path: readonly SessionEntry[], context: SessionContext, messageTokens: readonly number[]): ReportedUsage | null {
  let compaction: SessionEntry | null = null;
  for (let i = path.length - 1; i >= 0 && compaction === null; i--) if ((path[i] as SessionEntry).type === "compaction") compaction = path[i] as SessionEntry;
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i] as SessionEntry;
    if (reportedContextTokens(entry) === undefined) continue;
    return reportedUsageOf(entry, compaction, context.entryIds, messageTokens);
  }
  return null;
}

/**
 * The reported usage of `entry` (an assistant message with a usage, the newest on its path) given
 * the path's latest compaction and the context's messages (entry ids and estimates).
 */
export function reportedUsageOf(entry: SessionEntry, latestCompaction: SessionEntry | null, entryIds: readonly string[], messageTokens: readonly number[]): ReportedUsage {
  // what the context holds after that reply (all of it when the reply itself was summarized away)
  const at = entryIds.lastIndexOf(entry.id);
  let trailingTokens = 0;
  for (let k = at + 1; k < messageTokens.length; k++) trailingTokens += messageTokens[k] as number;
  return reportedUsageWith(entry, latestCompaction, trailingTokens);
}

/**
 * reportedUsageOf with the estimate of what the context holds after that reply already summed
 * (`trailingTokens`: the context's messages after it; all of them when it is not among them).
 */
export function reportedUsageWith(entry: SessionEntry, latestCompaction: SessionEntry | null, trailingTokens: number): ReportedUsage {
  const m = (entry as { message: AssistantMessage }).message;
  const age: UsageAge = latestCompaction === null ? "no-compaction" : isOlderThanLatestCompaction(m, [latestCompaction]) ? "before-compaction" : "after-compaction";
  return { tokens: calculateContextTokens(m.usage), entryId: entry.id, age, trailingTokens, model: typeof m.model === "string" ? m.model : "" };
}

/**
 * The context size the agent itself compares with its threshold (compaction.md §2.6, Bonsai
 * deviation 2): a usage reported after the latest compaction plus the estimate of what follows it;
 * otherwise the estimate.
 */
export function agentContextTokens(figures: Pick<ContextFigures, "tokens" | "usage">): number {
  const u = figures.usage;
  return u !== null && u.age !== "before-compaction" ? u.tokens + u.trailingTokens : figures.tokens;
}

/** Where a node's context figure comes from. */
export type ContextBasis =
  /** the last usage the model reported on the path plus the estimate of what followed it */
  | "reported"
  /** the estimate alone: nothing reported on the path, or a compaction came after the report */
  | "estimate";

/** A node's context figure (compaction.md §2.6) with the estimate shown beside it. */
export interface ContextFigure {
  /** what the model saw: the reported usage plus the estimate after it, else the estimate */
  contextTokens: number;
  basis: ContextBasis;
  /** the estimate of the messages in the file (no system prompt, no tools) */
  estimatedTokens: number;
  /** the usage the figure came from (null when basis is "estimate" for want of one) */
  usage: ReportedUsage | null;
}

/**
 * The display rule every panel, the session list and the CLI use: agentContextTokens with the
 * basis it took and the estimate beside it.
 */
export function contextFigureOf(figures: Pick<ContextFigures, "tokens" | "usage">): ContextFigure {
  const contextTokens = agentContextTokens(figures);
  const u = figures.usage;
  const basis: ContextBasis = u !== null && u.age !== "before-compaction" ? "reported" : "estimate";
  return { contextTokens, basis, estimatedTokens: figures.tokens, usage: u };
}

/**
 * The estimate `contextOf(...).tokens` for every node of a tree, in one pass: `steps[i]`'s parent
 * is `parent[i]` (-1 for a root; parents must not form cycles). A compaction restarts the context
 * at its summary plus the entries from its firstKeptEntryId (when that lies on the path before it;
 * otherwise nothing before the compaction is kept), as buildSessionContext does. Skeleton nodes are
 * steps as they are; `indexOf` (id -> position in `steps`) saves building a lookup when the caller
 * has one.
 */
export function contextTokensOfTree(steps: readonly ContextStep[], parent: ArrayLike<number>, indexOf?: (id: string) => number | undefined): Float64Array {
  const n = steps.length;
  const out = new Float64Array(n);
  // children lists (file order)
  const first = new Int32Array(n).fill(-1);
  const next = new Int32Array(n).fill(-1);
  const roots: number[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const p = parent[i] as number;
    if (p < 0) continue;
    next[i] = first[p] as number;
    first[p] = i;
  }
  for (let i = 0; i < n; i++) if ((parent[i] as number) < 0) roots.push(i);
  const keptIndex = indexOf ?? keptLookup(steps);

  // the current root -> node path as a stack: node, prefix sum of non-compaction estimates before it,
  // and the context base / kept start in force at it; depthOf[i] = i's depth while i is on it
  const stackNode = new Int32Array(n);
  const prefix = new Float64Array(n + 1);
  const base = new Float64Array(n);
  const start = new Int32Array(n);
  const depthOf = new Int32Array(n).fill(-1);
  const childCursor = new Int32Array(n);
  const enter = (i: number, d: number): void => {
    const s = steps[i] as ContextStep;
    stackNode[d] = i;
    depthOf[i] = d;
    const compaction = s.type === "compaction";
    prefix[d + 1] = (prefix[d] as number) + (compaction ? 0 : s.tokens);
    if (compaction) {
      base[d] = s.tokens;
      const k = s.firstKeptEntryId === undefined ? undefined : keptIndex(s.firstKeptEntryId);
      const kept = k === undefined ? -1 : (depthOf[k] as number);
      // firstKeptEntryId on this path before the compaction: kept from there, else nothing before it
      start[d] = kept >= 0 && kept < d ? kept : d + 1;
    } else {
      base[d] = d > 0 ? (base[d - 1] as number) : 0;
      start[d] = d > 0 ? (start[d - 1] as number) : 0;
    }
    out[i] = (base[d] as number) + (prefix[d + 1] as number) - (prefix[Math.min(start[d] as number, d + 1)] as number);
    childCursor[d] = first[i] as number;
  };
  // iterative DFS: a node is entered when pushed, left when its last child is done
  for (const root of roots) {
    let depth = 0;
    enter(root, 0);
    while (depth >= 0) {
      const child = childCursor[depth] as number;
      if (child >= 0) {
        childCursor[depth] = next[child] as number;
        depth++;
        enter(child, depth);
      } else {
        depthOf[stackNode[depth] as number] = -1;
        depth--;
      }
    }
  }
  return out;
}

/** id -> position, for the ids compactions keep from (the last step with that id, as indexing does) */
function keptLookup(steps: readonly ContextStep[]): (id: string) => number | undefined {
  const wanted = new Set<string>();
  for (const s of steps) if (s.type === "compaction" && s.firstKeptEntryId !== undefined) wanted.add(s.firstKeptEntryId);
  const at = new Map<string, number>();
  if (wanted.size > 0) for (let i = 0; i < steps.length; i++) if (wanted.has((steps[i] as ContextStep).id)) at.set((steps[i] as ContextStep).id, i);
  return (id) => at.get(id);
}

/** contextTokensOfTree over one root -> leaf path (each step the parent of the next). */
export function contextTokensAlongPath(path: readonly ContextStep[]): Float64Array {
  const parent = new Int32Array(path.length);
  for (let i = 0; i < path.length; i++) parent[i] = i - 1;
  return contextTokensOfTree(path, parent);
}

/** A skeleton node as a context step (its `tokens` is the entry's estimate, as entryContextTokens gives). */
export function contextStepOfNode(node: Pick<SkeletonNode, "id" | "type" | "tokens" | "firstKeptEntryId">): ContextStep {
  const step: ContextStep = { id: node.id, type: node.type, tokens: node.tokens };
  if (node.type === "compaction" && node.firstKeptEntryId !== undefined) step.firstKeptEntryId = node.firstKeptEntryId;
  return step;
}

/**
 * What a root -> leaf path tells about its model's window (model-window.ts windowEvidenceOf): the
 * last reported usage on it (as contextOf finds it) and its latest compaction's tokensBefore.
 */
export function windowEvidenceOfPath(path: readonly SessionEntry[]): WindowEvidence {
  let usage: { tokens: number; model: string } | null = null;
  let compaction: CompactionEntry | null = null;
  for (let i = path.length - 1; i >= 0 && (usage === null || compaction === null); i--) {
    const entry = path[i] as SessionEntry;
    if (entry.type === "compaction") compaction ??= entry as CompactionEntry;
    const tokens: number | undefined = usage === null ? reportedContextTokens(entry) : undefined;
    if (tokens !== undefined) {
      const model = (entry as { message: AssistantMessage }).message.model;
      usage = { tokens, model: typeof model === "string" ? model : "" };
    }
  }
  return windowEvidenceOf(usage, compaction);
}

/**
 * The display figure (contextFigureOf: the last usage reported on the path since its latest
 * compaction plus the estimate of what followed it, else the estimate) of every node of a tree, from
 * the estimates contextTokensOfTree gives (`estimates`) and the usage each assistant reply reports
 * (`usageOf(i)`: calculateContextTokens of its usage, undefined for a node without one). `parent`
 * as contextTokensOfTree takes it. A usage is "since the latest compaction" by position on the path.
 */
export function displayTokensOfTree(steps: readonly Pick<ContextStep, "type">[], parent: ArrayLike<number>, estimates: Float64Array, usageOf: (i: number) => number | undefined): Float64Array {
  const n = steps.length;
  const out = new Float64Array(n);
  // the node whose usage is in force at each node (-1: none since the latest compaction), parents first
  const source = new Int32Array(n).fill(-1);
  const children: number[][] = Array.from({ length: n }, () => []);
  const queue: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = parent[i] as number;
    if (p < 0) queue.push(i);
    else children[p]?.push(i);
  }
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q] as number;
    const p = parent[i] as number;
    const own = usageOf(i);
    source[i] = own !== undefined ? i : (steps[i] as ContextStep).type === "compaction" || p < 0 ? -1 : (source[p] as number);
    const s = source[i] as number;
    out[i] = s < 0 ? (estimates[i] as number) : (usageOf(s) as number) + (estimates[i] as number) - (estimates[s] as number);
    for (const c of children[i] as number[]) queue.push(c);
  }
  return out;
}
