/**
 * buildSessionContext (spec: context-building.md §1): the ordered agent messages of the branch
 * ending at a leaf, plus the settings in force there. Alongside each message it reports the id of
 * the entry that produced it (for the compaction summary, the compaction entry's id).
 */
import type {
  AgentMessage,
  BranchSummaryEntry,
  BranchSummaryMessage,
  CompactionEntry,
  CompactionSummaryMessage,
  CustomMessage,
  CustomMessageEntry,
  MessageEntry,
  SessionEntry,
} from "./entries";
import { convertToLlm } from "./convert";
import { estimateTokens } from "./tokens";
import { getPath, type SessionIndex } from "./tree";

export interface SessionContext {
  messages: AgentMessage[];
  /** entryIds[i] = id of the entry that produced messages[i] */
  entryIds: string[];
  thinkingLevel: string;
  /** role ("default", "smol", …) -> "provider/modelId" */
  models: Record<string, string>;
  injectedTtsrRules: string[];
  mode: string;
  modeData?: Record<string, unknown>;
}

export function emptyContext(): SessionContext {
  return { messages: [], entryIds: [], thinkingLevel: "off", models: {}, injectedTtsrRules: [], mode: "none" };
}

/** The message an entry contributes to the context, if any (compactions are handled by the caller). */
export function messageFromEntry(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message": {
      const message = (entry as MessageEntry).message as unknown;
      // a malformed line (message missing or not an object) contributes nothing
      return typeof message === "object" && message !== null ? (message as AgentMessage) : undefined;
    }
    case "custom_message": {
      const e = entry as CustomMessageEntry;
      const message: CustomMessage = {
        role: "custom",
        customType: e.customType,
        content: e.content,
        display: e.display,
        details: e.details,
        timestamp: Date.parse(e.timestamp),
      };
      return message;
    }
    case "branch_summary": {
      const e = entry as BranchSummaryEntry;
      if (typeof e.summary !== "string" || e.summary === "") return undefined; // a summary the file gives another type adds nothing
      const message: BranchSummaryMessage = { role: "branchSummary", summary: e.summary, fromId: e.fromId, timestamp: Date.parse(e.timestamp) };
      return message;
    }
    default:
      return undefined;
  }
}

export function compactionSummaryMessage(entry: CompactionEntry): CompactionSummaryMessage {
  return {
    role: "compactionSummary",
    // a summary the file gives another type (`summary: null`) reads as an empty one
    summary: typeof entry.summary === "string" ? entry.summary : "",
    shortSummary: entry.shortSummary,
    tokensBefore: entry.tokensBefore,
    timestamp: Date.parse(entry.timestamp),
  };
}

/** Resolves the leaf: null -> none; unknown or undefined id -> the last entry in file order. */
function resolveLeaf(entries: readonly SessionEntry[], leafId: string | null | undefined, byId: Map<string, SessionEntry>): SessionEntry | undefined {
  if (typeof leafId === "string") {
    const found = byId.get(leafId);
    if (found) return found;
  }
  return entries[entries.length - 1];
}

function indexById(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
  const byId = new Map<string, SessionEntry>();
  for (const e of entries) byId.set(e.id, e);
  return byId;
}

/**
 * §1.5 step 2: where the entries kept verbatim by the compaction at `compactionIndex` start, the
 * position of its firstKeptEntryId before it on `path`; `compactionIndex` (nothing kept before it)
 * when that id is absent or not on the path.
 */
function keptFrom(path: readonly SessionEntry[], compactionIndex: number): number {
  const firstKept = (path[compactionIndex] as CompactionEntry).firstKeptEntryId;
  if (firstKept === undefined) return compactionIndex;
  for (let i = 0; i < compactionIndex; i++) if ((path[i] as SessionEntry).id === firstKept) return i;
  return compactionIndex;
}

export interface LiveContextStart {
  /** position of the latest compaction in the path, -1 when there is none */
  compactionIndex: number;
  /** position of the first path entry whose message is sent (the compaction's first kept entry, or 0) */
  keptFrom: number;
}

/**
 * Which part of a root -> leaf path the context is built from (§1.5): with no compaction every
 * entry; otherwise the latest compaction's summary plus the entries from `keptFrom` on (the
 * compaction entry itself contributes only the summary).
 * @param end consider only path[0, end) (default the whole path)
 */
export function liveContextStart(path: readonly SessionEntry[], end = path.length): LiveContextStart {
  for (let i = end - 1; i >= 0; i--) {
    if ((path[i] as SessionEntry).type === "compaction") return { compactionIndex: i, keptFrom: keptFrom(path, i) };
  }
  return { compactionIndex: -1, keptFrom: 0 };
}

/**
 * @param entries all session entries (header excluded) in file order
 * @param leafId null = empty context; undefined or unknown = the last entry
 * @param byId optional id -> entry map (or a SessionIndex); built when absent (last duplicate wins)
 */
export function buildSessionContext(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: Map<string, SessionEntry> | Pick<SessionIndex, "byId">,
): SessionContext {
  if (leafId === null) return emptyContext();
  const map = byId instanceof Map ? byId : (byId?.byId ?? indexById(entries));
  const leaf = resolveLeaf(entries, leafId, map);
  if (!leaf) return emptyContext();
  const path = getPath({ byId: map }, leaf.id);

  let thinkingLevel = "off";
  const models: Record<string, string> = {};
  const rules = new Set<string>();
  let mode = "none";
  let modeData: Record<string, unknown> | undefined;
  let compactionIndex = -1;
  for (let i = 0; i < path.length; i++) {
    const e = path[i] as SessionEntry & Record<string, unknown>;
    switch (e.type) {
      case "thinking_level_change":
        thinkingLevel = e.thinkingLevel as string;
        break;
      case "model_change":
        if (e.model) models[(e.role as string | undefined) ?? "default"] = e.model as string;
        break;
      case "message": {
        const m = (e as MessageEntry).message;
        if (m?.role === "assistant") models.default = `${m.provider}/${m.model}`;
        break;
      }
      case "compaction":
        compactionIndex = i;
        break;
      case "ttsr_injection":
        if (Array.isArray(e.injectedRules)) for (const r of e.injectedRules as string[]) rules.add(r);
        break;
      case "mode_change":
        mode = e.mode as string;
        modeData = e.data as Record<string, unknown> | undefined;
        break;
    }
  }

  const messages: AgentMessage[] = [];
  const entryIds: string[] = [];
  const append = (e: SessionEntry): void => {
    const m = messageFromEntry(e);
    if (m) {
      messages.push(m);
      entryIds.push(e.id);
    }
  };

  if (compactionIndex < 0) {
    for (const e of path) append(e);
  } else {
    const compaction = path[compactionIndex] as CompactionEntry;
    messages.push(compactionSummaryMessage(compaction));
    entryIds.push(compaction.id);
    for (let i = keptFrom(path, compactionIndex); i < compactionIndex; i++) append(path[i] as SessionEntry);
    for (let i = compactionIndex + 1; i < path.length; i++) append(path[i] as SessionEntry);
  }

  return { messages, entryIds, thinkingLevel, models, injectedTtsrRules: [...rules], mode, modeData };
}

/** What the model sees, without the messages: what a reader that shows or compares contexts needs. */
export interface ContextSummary {
  /** entryIds[i] = the entry that produced message i (the compaction entry for its summary) */
  entryIds: string[];
  /** each message's role before convertToLlm (kept as the line holds it, even when it is not text) */
  roles: unknown[];
  /** the roles convertToLlm sends (dropped messages are absent) */
  llmRoles: string[];
  /** each message's token estimate (estimateTokens) */
  tokens: number[];
  /** role -> "provider/model", in the order the path sets them */
  models: Record<string, string>;
  thinkingLevel: string;
}

/** The summary of a built context. */
export function summarizeContext(context: SessionContext): ContextSummary {
  return {
    entryIds: context.entryIds,
    roles: context.messages.map((m) => m.role),
    llmRoles: convertToLlm(context.messages).map((m) => m.role),
    tokens: context.messages.map(estimateTokens),
    models: context.models,
    thinkingLevel: context.thinkingLevel,
  };
}
