/**
 * The exact prompt texts of compaction.md §8.2 and branch-summary.md §5 (conversation block,
 * previous summary, additional context, base prompt, custom instructions).
 */
import type { LlmMessage } from "@bonsai/core";
import { serializeConversation } from "@bonsai/core";
import { prompt } from "@bonsai/llm";

export function conversationBlock(serialized: string): string {
  return `<conversation>\n${serialized}\n</conversation>\n\n`;
}

export function serializedConversationBlock(messages: readonly LlmMessage[]): string {
  return conversationBlock(serializeConversation(messages));
}

export function previousSummaryBlock(summary: string | undefined): string {
  return summary ? `<previous-summary>\n${summary}\n</previous-summary>\n\n` : "";
}

export function additionalContextBlock(context: readonly string[] | undefined): string {
  if (!context || context.length === 0) return "";
  return `<additional-context>\n${context.map((line) => `- ${line}`).join("\n")}\n</additional-context>\n\n`;
}

export interface HistoryPromptInput {
  /** the serialized `messagesToSummarize` */
  conversation: string;
  previousSummary?: string;
  customInstructions?: string;
  promptOverride?: string;
  extraContext?: readonly string[];
}

/** History summary (first or iterative). */
export function historyPrompt(input: HistoryPromptInput): string {
  let base = input.previousSummary ? prompt("update") : prompt("summary");
  if (input.promptOverride) base = input.promptOverride;
  if (input.customInstructions) base = `${base}\n\nAdditional focus: ${input.customInstructions}`;
  return conversationBlock(input.conversation) + previousSummaryBlock(input.previousSummary) + additionalContextBlock(input.extraContext) + base;
}

/** Turn-prefix summary: no previous summary, context, instructions or override. */
export function turnPrefixPrompt(conversation: string): string {
  return conversationBlock(conversation) + prompt("turnPrefix");
}

/** Short summary of the recent messages, given the merged history summary (before file tags). */
export function shortSummaryPrompt(conversation: string, historySummary: string, extraContext?: readonly string[]): string {
  return conversationBlock(conversation) + previousSummaryBlock(historySummary) + additionalContextBlock(extraContext) + prompt("short");
}

/** Branch summary: custom instructions replace the default prompt entirely (omp). */
export function branchSummaryPrompt(conversation: string, customInstructions?: string): string {
  return conversationBlock(conversation) + (customInstructions || prompt("branch"));
}

/** `max tokens` of the three compaction calls (compaction.md §1): core's rule, also used by the what-if replay. */
export { compactionMaxTokens } from "@bonsai/core";

export const BRANCH_SUMMARY_MAX_TOKENS = 2048;
