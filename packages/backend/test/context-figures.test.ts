/**
 * One answer for "what does the model see from this node" (DESIGN rule 11, core contextOf): for
 * every node of generated sessions — every entry type and message role, on and off the active path,
 * before and after compactions — the estimate of core's one-pass rule over the skeleton (what the
 * inspector, the tree and the chart show), core contextOf over the stored path, the context preview
 * (What the model sees) and the entry's own figure agree; at the leaf the Compact panel's plan and
 * the dry run start from the same figure.
 */
import { describe, expect, it } from "vitest";
import { contextFigureOf, contextOf, contextStepOfNode, contextTokensOfTree, displayTokensOfTree, unpackSkeleton, type PackedSkeleton, type SkeletonNode } from "@bonsai/core";
import { contract, type MethodName, type MethodOutput } from "@bonsai/ipc";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { importUpload, useBackend, ok } from "./support";

/** "message/user", "compaction", ... */
function kindOf(n: SkeletonNode): string {
  return n.type === "message" ? `message/${n.role ?? "?"}` : n.type;
}

describe("context figures agree for every node (core contextOf)", () => {
  const backend = useBackend();
  const call = async <M extends MethodName>(method: M, params: unknown): Promise<MethodOutput<M>> =>
    contract[method].output.parse(ok(await backend().dispatch(method, params))) as MethodOutput<M>;

  it("skeleton rule, contextOf, the preview and the entry agree on every node of every kind", async () => {
    const kinds = new Map<string, number>();
    for (const seed of [3, 11, 19]) {
      const session = generateSession({ entries: 500, seed, compactionInterval: 180, branchProbability: 0.15 });
      const imported = await importUpload(backend().dispatch, `gen-${seed}.jsonl`, sessionToJsonl(session));
      const sessionId = imported.results[0]!.sessionId;
      const { skeleton: packed } = await call("openSession", { sessionId });
      const skeleton = unpackSkeleton(packed as PackedSkeleton);
      const index = new Map(skeleton.nodes.map((n, i) => [n.id, i]));
      const parent = skeleton.nodes.map((n) => (n.parentId === null ? -1 : (index.get(n.parentId) ?? -1)));
      const byTree = contextTokensOfTree(skeleton.nodes.map(contextStepOfNode), parent);
      // the display figure every panel leads with (compaction.md §2.6), from the replies' usage, as the page computes it
      const usage = await call("getUsagePoints", { sessionId });
      const usageAt = new Map(usage.entryIds.map((id, k) => [index.get(id)!, usage.tokens[k]!]));
      expect(usageAt.size).toBeGreaterThan(0);
      const display = displayTokensOfTree(skeleton.nodes, parent, byTree, (i) => usageAt.get(i));

      for (let i = 0; i < skeleton.nodes.length; i++) {
        const node = skeleton.nodes[i]!;
        kinds.set(kindOf(node), (kinds.get(kindOf(node)) ?? 0) + 1);
        const path = backend().store.getPath(sessionId, node.id);
        const fromEntries = contextOf(path, node.id);
        expect(byTree[i], `${kindOf(node)} ${node.id}: skeleton rule vs contextOf`).toBe(fromEntries.tokens);
        const preview = await call("getContextPreview", { sessionId, leafId: node.id });
        expect(preview.tokens, `${kindOf(node)} ${node.id}: preview`).toBe(fromEntries.tokens);
        expect(display[i], `${kindOf(node)} ${node.id}: the tree's display figure vs What the model sees`).toBe(preview.agentTokens);
        expect(preview.agentTokens).toBe(contextFigureOf(fromEntries).contextTokens);
        expect(preview.messages.reduce((n, m) => n + m.tokens, 0)).toBe(preview.tokens);
        expect(preview.sizeSeries.at(-1)?.tokens).toBe(preview.tokens);
        const detail = await call("getEntry", { sessionId, entryId: node.id });
        expect(detail.tokens, `${kindOf(node)} ${node.id}: the entry's own estimate`).toBe(node.tokens);
      }
      // at the leaf, the Compact panel and the dry run start from the same figure
      const leafIndex = index.get(skeleton.leafId!)!;
      const plan = await call("planCompaction", { sessionId });
      expect(plan.contextTokens).toBe(display[leafIndex]);
      if (plan.possible) {
        const dry = await call("compact", { sessionId, dryRun: true });
        expect(dry.contextTokensBefore).toBe(display[leafIndex]);
        expect(dry.contextTokensAfter).toBeLessThan(dry.contextTokensBefore);
      }
    }
    // every kind the generator writes was walked
    for (const kind of [
      "message/user",
      "message/assistant",
      "message/toolResult",
      "message/bashExecution",
      "message/pythonExecution",
      "message/fileMention",
      "message/custom",
      "compaction",
      "branch_summary",
      "custom_message",
      "custom",
      "label",
      "model_change",
      "thinking_level_change",
      "mode_change",
      "session_info",
      "session_init",
      "ttsr_injection",
    ]) {
      expect(kinds.get(kind) ?? 0, `generated sessions have ${kind} entries`).toBeGreaterThan(0);
    }
  }, 180_000);
});
