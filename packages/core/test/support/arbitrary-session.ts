/**
 * fast-check arbitraries for session trees shaped like real agent sessions: turns (a user prompt,
 * tool rounds in which every tool result directly follows the assistant call it answers, possibly
 * with metadata in between, a final reply), metadata, bash executions, custom messages, branch
 * summaries, navigation to earlier entries (branches) and compactions planned by prepareCompaction.
 */
import fc from "fast-check";
import type { AssistantContentBlock, SessionEntry } from "../../src/entries";
import { buildIndex, getPath } from "../../src/tree";
import { prepareCompaction } from "../../src/prepare-compaction";
import { assistantMessage, timestampOf, toolResult, usage, x } from "./notation";

export const TOOL_NAMES = ["bash", "read", "edit", "write", "skill", "grep"] as const;

export type SessionOp =
  | { kind: "turn"; prompt: number; rounds: { calls: { tool: number; size: number; metaBefore: boolean }[] }[]; reply: number; usage: number }
  | { kind: "meta"; which: number }
  | { kind: "bash"; size: number }
  | { kind: "customMessage"; size: number }
  | { kind: "branchSummary"; size: number }
  | { kind: "navigate"; back: number }
  | { kind: "compact"; keep: number };

const turnArb = fc.record({
  kind: fc.constant("turn" as const),
  prompt: fc.integer({ min: 0, max: 4000 }),
  rounds: fc.array(
    fc.record({
      calls: fc.array(
        fc.record({ tool: fc.nat(TOOL_NAMES.length - 1), size: fc.integer({ min: 0, max: 60000 }), metaBefore: fc.boolean() }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
    { maxLength: 3 },
  ),
  reply: fc.integer({ min: 0, max: 4000 }),
  usage: fc.integer({ min: 0, max: 200000 }),
});

export const sessionOpArb: fc.Arbitrary<SessionOp> = fc.oneof(
  { weight: 6, arbitrary: turnArb },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("meta" as const), which: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("bash" as const), size: fc.integer({ min: 0, max: 8000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("customMessage" as const), size: fc.integer({ min: 0, max: 2000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("branchSummary" as const), size: fc.integer({ min: 0, max: 2000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("navigate" as const), back: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("compact" as const), keep: fc.integer({ min: 1, max: 30000 }) }) },
);

export const sessionArb = fc
  .array(sessionOpArb, { minLength: 1, maxLength: 40 })
  .map(buildSession)
  .filter((entries) => entries.length > 0);

/** Applies the operations; every entry is appended as a child of the current leaf. */
export function buildSession(ops: readonly SessionOp[]): SessionEntry[] {
  const entries: SessionEntry[] = [];
  let leaf: string | null = null;
  let callCount = 0;
  const append = (body: Record<string, unknown>): string => {
    const id = `n${entries.length}`;
    entries.push({ ...body, id, parentId: leaf, timestamp: timestampOf(entries.length) } as unknown as SessionEntry);
    leaf = id;
    return id;
  };
  const appendMessage = (message: object): string => append({ type: "message", message });
  const meta = (which: number): string => {
    switch (which % 4) {
      case 0:
        return append({ type: "model_change", model: "p/m" });
      case 1:
        return append({ type: "thinking_level_change", thinkingLevel: "low" });
      case 2:
        return append({ type: "label", targetId: leaf ?? "none", label: "mark" });
      default:
        return append({ type: "custom", customType: "state", data: { n: entries.length } });
    }
  };

  for (const op of ops) {
    switch (op.kind) {
      case "turn": {
        appendMessage({ role: "user", content: x(op.prompt), timestamp: 0 });
        for (const round of op.rounds) {
          const calls: AssistantContentBlock[] = round.calls.map((c) => ({
            type: "toolCall",
            id: `c${callCount++}`,
            name: TOOL_NAMES[c.tool] as string,
            arguments: { path: `f${c.tool}.ts` },
          }));
          appendMessage(assistantMessage(calls, usage(op.usage), "toolUse"));
          round.calls.forEach((c, k) => {
            if (c.metaBefore) meta(k);
            const block = calls[k] as Extract<AssistantContentBlock, { type: "toolCall" }>;
            appendMessage({ ...toolResult([{ type: "text", text: x(c.size) }], block.name), toolCallId: block.id });
          });
        }
        appendMessage(assistantMessage([{ type: "text", text: x(op.reply) }], usage(op.usage)));
        break;
      }
      case "meta":
        meta(op.which);
        break;
      case "bash":
        appendMessage({ role: "bashExecution", command: "ls", output: x(op.size), exitCode: 0, cancelled: false, truncated: false, timestamp: 0 });
        break;
      case "customMessage":
        append({ type: "custom_message", customType: "note", content: x(op.size), display: true });
        break;
      case "branchSummary":
        append({ type: "branch_summary", fromId: leaf ?? "root", summary: x(op.size) });
        break;
      case "navigate":
        if (entries.length > 0) leaf = (entries[Math.max(0, entries.length - 1 - op.back)] as SessionEntry).id;
        break;
      case "compact": {
        const path = getPath(buildIndex(entries), leaf);
        const prep = prepareCompaction(path, { keepRecentTokens: op.keep });
        if (prep) append({ type: "compaction", summary: "summary", firstKeptEntryId: prep.firstKeptEntryId, tokensBefore: prep.tokensBefore });
        break;
      }
    }
  }
  return entries;
}
