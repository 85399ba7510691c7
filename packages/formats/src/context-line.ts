/**
 * The figure of what the model sees from an export's leaf, in the words the app uses: the display
 * figure every panel leads with (core contextFigureOf, compaction.md §2.6), the estimate of the
 * messages second. The HTML and Markdown exports print it, so an export says what the app says.
 */
import { contextFigureOf, contextOf, type SessionEntry } from "@bonsai/core";

export function leafContextLine(path: readonly SessionEntry[]): string {
  const leafId = path.length === 0 ? null : (path[path.length - 1] as SessionEntry).id;
  const figure = contextFigureOf(contextOf(path, leafId));
  const n = (v: number) => Math.round(v).toLocaleString("en-US");
  const basis = figure.basis === "reported" && figure.usage ? `the last usage the model reported, ${n(figure.usage.tokens)}, plus the estimate of what followed` : "estimated";
  return `What the model sees from the leaf: ${n(figure.contextTokens)} tokens (${basis}); the estimate of the messages: ${n(figure.estimatedTokens)}`;
}
