/**
 * convertToLlm (spec: context-building.md §2): agent messages -> the user / assistant / toolResult
 * messages a model receives. Messages that map to nothing are dropped; order is preserved.
 */
import type {
  AgentMessage,
  BashExecutionMessage,
  CustomMessage,
  FileMentionMessage,
  ImageContent,
  LlmMessage,
  PythonExecutionMessage,
  TextContent,
  ToolResultMessage,
  UserContentBlock,
  UserMessage,
} from "./entries";
import { formatOutputNotice } from "./output-notice";
import { renderPrompt } from "./templates";

/** Replacement text of a pruned tool result that had no text at all. */
export const PRUNED_WITHOUT_TEXT = "[Output truncated]";

function textBlock(text: string): TextContent {
  return { type: "text", text };
}

function userMessage(content: UserContentBlock[], timestamp: number): UserMessage {
  return { role: "user", content, timestamp };
}

function exitedWithError(exitCode: unknown): exitCode is number {
  return typeof exitCode === "number" && exitCode !== 0;
}

/** The text a user `!command` execution shows the model. */
export function bashExecutionToText(m: BashExecutionMessage): string {
  let text = `Ran \`${m.command}\`\n`;
  text += m.output ? `\`\`\`\n${m.output}\n\`\`\`` : "(no output)";
  if (m.cancelled) text += "\n\n(command cancelled)";
  else if (exitedWithError(m.exitCode)) text += `\n\nCommand exited with code ${m.exitCode}`;
  return text + formatOutputNotice(m.meta);
}

/** The text a user `$code` Python execution shows the model. */
export function pythonExecutionToText(m: PythonExecutionMessage): string {
  let text = `Ran Python:\n\`\`\`python\n${m.code}\n\`\`\`\n`;
  text += m.output ? `Output:\n\`\`\`\n${m.output}\n\`\`\`` : "(no output)";
  if (m.cancelled) text += "\n\n(execution cancelled)";
  else if (exitedWithError(m.exitCode)) text += `\n\nExecution failed with code ${m.exitCode}`;
  return text + formatOutputNotice(m.meta);
}

/** The content a model sees for a tool result: after pruning, only its text (or a marker). */
export function prunedAwareContent(m: ToolResultMessage): UserContentBlock[] {
  if (m.prunedAt === undefined) return m.content;
  let text = "";
  let hasText = false;
  for (const block of Array.isArray(m.content) ? m.content : []) {
    if (block?.type === "text") {
      text += block.text;
      hasText = true;
    }
  }
  return [textBlock(hasText ? text : PRUNED_WITHOUT_TEXT)];
}

/** The `<system-reminder>` text block and image blocks of an `@file` mention. */
export function fileMentionContent(m: FileMentionMessage): UserContentBlock[] {
  const list = Array.isArray(m.files) ? m.files : [];
  const files = list.map((f) => `<file path="${f.path}">${f.content ? `\n${f.content}\n` : "\n"}</file>`);
  const content: UserContentBlock[] = [textBlock(`<system-reminder>\n${files.join("\n\n")}\n</system-reminder>`)];
  for (const f of list) if (f.image) content.push(f.image as ImageContent);
  return content;
}

function customContent(m: CustomMessage): UserContentBlock[] {
  return typeof m.content === "string" ? [textBlock(m.content)] : Array.isArray(m.content) ? m.content : [];
}

/** One agent message as the model sees it, or undefined when it is not sent (llmRoleOf decides which). */
export function convertMessageToLlm(m: AgentMessage): LlmMessage | undefined {
  const excluded = (m.role === "bashExecution" || m.role === "pythonExecution") && Boolean(m.excludeFromContext);
  if (llmRoleOf(m.role, excluded) === undefined) return undefined;
  switch (m.role) {
    case "user":
    case "assistant":
      return m;
    case "toolResult":
      return { ...m, content: prunedAwareContent(m) };
    case "bashExecution":
      return userMessage([textBlock(bashExecutionToText(m))], m.timestamp);
    case "pythonExecution":
      return userMessage([textBlock(pythonExecutionToText(m))], m.timestamp);
    case "custom":
    case "hookMessage":
      return userMessage(customContent(m), m.timestamp);
    case "branchSummary":
      return userMessage([textBlock(renderPrompt("branch-summary-context", { summary: m.summary }))], m.timestamp);
    case "compactionSummary":
      return userMessage([textBlock(renderPrompt("compaction-summary-context", { summary: m.summary }))], m.timestamp);
    case "fileMention":
      return userMessage(fileMentionContent(m), m.timestamp);
    default:
      return undefined;
  }
}

/**
 * The role convertMessageToLlm gives a message with this role, or undefined when it is not sent:
 * what a reader that keeps each message's role (and whether a user execution is excluded from the
 * context) needs, without the message itself.
 */
export function llmRoleOf(role: string, excludeFromContext: boolean): LlmMessage["role"] | undefined {
  switch (role) {
    case "user":
    case "assistant":
    case "toolResult":
      return role;
    case "bashExecution":
    case "pythonExecution":
      return excludeFromContext ? undefined : "user";
    case "custom":
    case "hookMessage":
    case "branchSummary":
    case "compactionSummary":
    case "fileMention":
      return "user";
    default:
      return undefined;
  }
}

/** convertToLlm: maps every message, dropping those that are not sent. */
export function convertToLlm(messages: readonly AgentMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const m of messages) {
    const converted = convertMessageToLlm(m);
    if (converted) out.push(converted);
  }
  return out;
}
