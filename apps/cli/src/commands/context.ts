/**
 * `bonsai context SESSION [--leaf ID] [--json]`: what the model sees from a leaf.
 */
import {
  buildSessionContext,
  convertToLlm,
  estimateTokens,
  type AgentMessage,
  type SessionContext,
} from "@bonsai/core";
import { column, printJson, type Io } from "../output";
import { loadSession, reportIssues, resolveLeafId, type LoadedSession } from "../session-source";
import type { Command } from "./command";
import { contextSpec } from "./context.spec";

export interface ContextReport {
  leafId: string | null;
  /** the entry that produced each context message (the compaction entry for the summary) */
  entryIds: string[];
  /** each message's role before convertToLlm */
  roles: string[];
  /** the roles of the messages convertToLlm sends (dropped messages are absent) */
  llmRoles: string[];
  /** sum of the per-message estimates */
  estimatedTokens: number;
  /** role -> "provider/model" */
  model: Record<string, string>;
  thinkingLevel: string;
}

export function contextReport(session: LoadedSession, leafOption: string | undefined): { report: ContextReport; context: SessionContext; tokens: number[] } {
  const leafId = resolveLeafId(session, leafOption);
  const context = buildSessionContext(session.entries, leafId, session.index);
  const tokens = context.messages.map(estimateTokens);
  const report: ContextReport = {
    leafId,
    entryIds: context.entryIds,
    roles: context.messages.map((m) => m.role),
    llmRoles: convertToLlm(context.messages).map((m) => m.role),
    estimatedTokens: tokens.reduce((a, b) => a + b, 0),
    model: context.models,
    thinkingLevel: context.thinkingLevel,
  };
  return { report, context, tokens };
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

function printText(io: Io, session: LoadedSession, report: ContextReport, context: SessionContext, tokens: number[]): void {
  const models = Object.entries(report.model).map(([role, model]) => `${role}=${model}`).join(", ") || "(none)";
  const lines = [
    `Session ${session.header.id} (${session.label})`,
    `Leaf: ${report.leafId ?? "(none)"}`,
    `Model: ${models}   Thinking: ${report.thinkingLevel}`,
    `Messages: ${report.roles.length} (${report.llmRoles.length} sent to the model), about ${report.estimatedTokens} tokens estimated`,
    "",
  ];
  if (report.roles.length > 0) lines.push(`${"#".padStart(5)}  ${column("entry", 16)}  ${column("role", 17)}  ${"tokens".padStart(7)}  preview`);
  context.messages.forEach((m, i) => {
    const preview = column(messagePreview(m), 90).trimEnd();
    lines.push(`${String(i + 1).padStart(5)}  ${column(report.entryIds[i] ?? "", 16)}  ${column(m.role, 17)}  ${String(tokens[i]).padStart(7)}  ${preview}`);
  });
  io.stdout(`${lines.join("\n")}\n`);
}

export const contextCommand: Command = {
  spec: contextSpec,
  async run(args, io) {
    const session = await loadSession(args.positionals[0] as string);
    reportIssues(io, session);
    const { report, context, tokens } = contextReport(session, args.options.leaf as string | undefined);
    if (args.options.json) printJson(io, report);
    else printText(io, session, report, context, tokens);
  },
};
