/**
 * The summarization prompts (prompts/*.md, embedded by scripts/gen-prompts.mjs), rendered and
 * layout-normalised by core's one renderer (renderPrompt), which fails on a missing placeholder.
 */
import { renderPrompt, type PromptName } from "@bonsai/core";

export const PROMPT_NAMES = {
  system: "summarization-system",
  summary: "compaction-summary",
  update: "compaction-update-summary",
  turnPrefix: "compaction-turn-prefix",
  short: "compaction-short-summary",
  branch: "branch-summary",
  branchPreamble: "branch-summary-preamble",
  turnSystem: "turn-system",
} as const satisfies Record<string, PromptName>;

export type PromptKey = keyof typeof PROMPT_NAMES;

const cache = new Map<PromptKey, string>();

/** A summarization prompt constant (none of them take placeholders), rendered once. */
export function prompt(key: PromptKey): string {
  let text = cache.get(key);
  if (text === undefined) {
    text = renderPrompt(PROMPT_NAMES[key]);
    cache.set(key, text);
  }
  return text;
}
