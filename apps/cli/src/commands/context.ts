/**
 * `bonsai context SESSION [--leaf ID] [--all] [--json]`: what the model sees from a leaf (a long
 * context listed as its first and newest messages unless --all).
 */
import {
  CONTEXT_LIST_HEAD,
  CONTEXT_LIST_TAIL,
  DEFAULT_SETTINGS,
  contextFigureOf,
  contextOf,
  listedOf,
  summarizeContext,
  type AgentMessage,
  type BonsaiSettings,
  type ContextBasis,
  type ContextSummary,
  type ContextWindowSource,
  type IdList,
  type ReportedUsage,
  type SessionContext,
  type FiguresOfPath,
  windowEvidenceOf,
  windowOfSession,
} from "@bonsai/core";
import type { SessionCommit } from "@bonsai/store";
import { commitLines } from "../commits-text";
import type { ParsedArgs } from "../args";
import { column, printJson, type Io } from "../output";
import { reportIssues, resolveLeafId, withSessionOf, type ContextListing, type LoadedSession } from "../session-source";
import type { Command } from "./command";

type ModelSettings = BonsaiSettings["model"];

export interface ContextReport {
  leafId: string | null;
  /** the entry that produced each context message (the compaction entry for the summary) */
  entryIds: string[] | IdList;
  /** each message's role before convertToLlm */
  roles: unknown[] | IdList;
  /** the roles of the messages convertToLlm sends (dropped messages are absent) */
  llmRoles: string[] | IdList;
  /** sum of the per-message estimates (the reference's estimate of the messages in the file) */
  estimatedTokens: number;
  /**
   * what the model saw (core contextFigureOf, compaction.md §2.6): the last usage reported on the
   * path plus the estimate after it; the estimate alone without one or after a compaction
   */
  contextTokens: number;
  /** "reported" or "estimate": where contextTokens came from */
  contextBasis: ContextBasis;
  /** the usage it came from (null: none on the path) */
  usage: ReportedUsage | null;
  /** the window of the session's model (core contextWindowOf) and where it came from */
  contextWindow: number;
  contextWindowSource: ContextWindowSource;
  /** role -> "provider/model" */
  model: Record<string, string>;
  thinkingLevel: string;
  /** the commits the session produced (a session imported from a checkpoint branch; else []) */
  commits: SessionCommit[];
}

type Figures = Pick<ContextReport, "contextTokens" | "contextBasis" | "usage" | "contextWindow" | "contextWindowSource">;

/**
 * The context figure at the leaf, from its path (the usage is on the path, not in the context's
 * lists); a stored session reads the estimate and the usage without reading the path.
 */
function figuresAt(session: LoadedSession, leafId: string | null, model: ModelSettings): Figures {
  return figuresOf(session.contextFigures?.(leafId) ?? contextOf(session.path(leafId), leafId), model);
}

/** The figures the report prints, from the estimate and the last reported usage (core contextFigureOf). */
function figuresOf(figures: FiguresOfPath, model: ModelSettings): Figures {
  const figure = contextFigureOf(figures);
  const tokensBefore = figures.compactionTokensBefore;
  const window = windowOfSession(windowEvidenceOf(figure.usage, tokensBefore === null ? null : { tokensBefore }), model);
  return { contextTokens: figure.contextTokens, contextBasis: figure.basis, usage: figure.usage, contextWindow: window.contextWindow, contextWindowSource: window.source };
}

function reportOf(leafId: string | null, summary: ContextSummary, figures: Figures): Omit<ContextReport, "commits"> {
  return {
    leafId,
    entryIds: summary.entryIds,
    roles: summary.roles,
    llmRoles: summary.llmRoles,
    estimatedTokens: summary.tokens.reduce((a, b) => a + b, 0),
    model: summary.models,
    thinkingLevel: summary.thinkingLevel,
    ...figures,
  };
}

/** The report of the context at the leaf (a stored session answers it from its columns, without the messages). */
export function contextReport(session: LoadedSession, leafOption: string | undefined, model: ModelSettings = DEFAULT_SETTINGS.model): ContextReport {
  const leafId = resolveLeafId(session, leafOption);
  const lists = session.contextLists?.(leafId);
  const commits = session.commits?.() ?? [];
  if (lists) return { leafId, entryIds: lists.entryIds, roles: lists.roles, llmRoles: lists.llmRoles, estimatedTokens: lists.estimatedTokens, model: lists.models, thinkingLevel: lists.thinkingLevel, ...figuresOf(lists.figures, model), commits };
  return { ...reportOf(leafId, session.contextSummary(leafId), figuresAt(session, leafId, model)), commits };
}

/** The context's messages with their summary (the text listing shows them). */
function contextWithMessages(session: LoadedSession, leafId: string | null): { summary: ContextSummary; context: SessionContext } {
  const context = session.context(leafId);
  return { summary: summarizeContext(context), context };
}

/**
 * What the text listing shows of the context at the leaf: every message, or a long context's first
 * CONTEXT_LIST_HEAD and newest CONTEXT_LIST_TAIL (`all` false) — a stored session reads only those.
 */
export function contextListing(session: LoadedSession, leafOption: string | undefined, all: boolean): { leafId: string | null; listing: ContextListing } {
  const leafId = resolveLeafId(session, leafOption);
  const stored = all ? undefined : session.contextListing?.(leafId, CONTEXT_LIST_HEAD, CONTEXT_LIST_TAIL);
  if (stored) return { leafId, listing: stored };
  const { summary, context } = contextWithMessages(session, leafId);
  const listed = context.messages.map((message, index) => ({ index, entryId: context.entryIds[index] ?? "", role: String(message.role), tokens: summary.tokens[index] as number, message }));
  const count = listed.length;
  const estimatedTokens = summary.tokens.reduce((a, b) => a + b, 0);
  return {
    leafId,
    listing: { listed: all ? listed : listedOf(listed), count, sent: summary.llmRoles.length, estimatedTokens, models: summary.models, thinkingLevel: summary.thinkingLevel },
  };
}

function firstText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  for (const block of content as { type?: string; text?: string; thinking?: string; name?: string }[]) {
    if (block?.type === "text" && block.text) return block.text;
    if (block?.type === "toolCall" && block.name) return `→ ${block.name}(…)`;
    if (block?.type === "thinking" && block.thinking) return `(thinking) ${block.thinking}`;
  }
  return "";
}

/** One line of text describing a message, for the listing. */
export function messagePreview(m: AgentMessage): string {
  const r = m as unknown as Record<string, unknown>;
  let text: string;
  switch (m.role) {
    case "compactionSummary":
    case "branchSummary":
      text = String(r.summary ?? "");
      break;
    case "bashExecution":
      text = `$ ${String(r.command ?? "")}`;
      break;
    case "pythonExecution":
      text = `>>> ${String(r.code ?? "")}`;
      break;
    case "toolResult":
      text = `[${String(r.toolName ?? "tool")}] ${firstText(r.content)}`;
      break;
    case "fileMention":
      text = `@ ${((r.files as { path?: string }[] | undefined) ?? []).map((f) => f.path).join(", ")}`;
      break;
    default:
      text = firstText(r.content);
  }
  return text.replace(/\s+/g, " ").trim();
}

function printText(io: Io, session: LoadedSession, leafId: string | null, listing: ContextListing, model: ModelSettings): void {
  const models = Object.entries(listing.models).map(([role, model]) => `${role}=${model}`).join(", ") || "(none)";
  const lines = [
    `Session ${session.header.id} (${session.label})`,
    `Leaf: ${leafId ?? "(none)"}`,
    `Model: ${models}   Thinking: ${listing.thinkingLevel}`,
    `Messages: ${listing.count} (${listing.sent} sent to the model), about ${listing.estimatedTokens} tokens estimated`,
    contextLine(figuresAt(session, leafId, model)),
    ...commitLines(session.commits?.() ?? [], ""),
    "",
  ];
  if (listing.count > 0) lines.push(`${"#".padStart(5)}  ${column("entry", 16)}  ${column("role", 17)}  ${"tokens".padStart(7)}  preview`);
  let next = 0;
  for (const m of listing.listed) {
    if (m.index > next) lines.push(`${"".padStart(5)}  … ${m.index - next} messages in between are not listed (--all lists every message)`);
    const preview = column(m.message ? messagePreview(m.message) : "", 90).trimEnd();
    lines.push(`${String(m.index + 1).padStart(5)}  ${column(m.entryId, 16)}  ${column(m.role, 17)}  ${String(m.tokens).padStart(7)}  ${preview}`);
    next = m.index + 1;
  }
  io.stdout(`${lines.join("\n")}\n`);
}

function contextLine(f: Figures): string {
  const pct = f.contextWindow > 0 ? ` (${((f.contextTokens / f.contextWindow) * 100).toFixed(1)} % of ${f.contextWindow} tokens${f.contextWindowSource === "settings" ? "" : ` for ${f.usage?.model ?? "the model"}`})` : "";
  const from = f.usage && f.contextBasis === "reported" ? `: ${f.usage.tokens} reported by the model + ${f.usage.trailingTokens} estimated after it` : f.usage ? ": estimated (the last reported usage is older than the latest compaction)" : ": estimated (no reported usage on the path)";
  return `Context: ${f.contextTokens} tokens${pct}${from}`;
}

/** The command on a loaded session (a file's, or the stored one stored-read.ts opened). */
export function contextOn(session: LoadedSession, args: ParsedArgs, io: Io, model: ModelSettings = DEFAULT_SETTINGS.model): void {
  reportIssues(io, session);
  const leaf = args.options.leaf as string | undefined;
  if (args.options.json) {
    printJson(io, contextReport(session, leaf, model));
    return;
  }
  const { leafId, listing } = contextListing(session, leaf, args.options.all === true);
  printText(io, session, leafId, listing, model);
}

/**
 * The command on its SESSION argument; `commits`: the commits the session produced when the file
 * alone does not hold them (a session downloaded from a team archive: archive-read.ts).
 */
export async function runContext(args: ParsedArgs, io: Io, commits?: readonly SessionCommit[]): Promise<void> {
  // the windows and overrides saved with `bonsai config` / Preferences, as the page uses them
  // (loaded on demand: reading a file needs no store when there is no database)
  const { storedSettings } = await import("../stored-settings");
  const model = (await storedSettings(args, io)).model;
  await withSessionOf(args, (session) => contextOn(commits === undefined ? session : { ...session, commits: () => [...commits] }, args, io, model));
}

export const contextCommand: Command = {
  async run(args, io) {
    await runContext(args, io);
  },
};
