/**
 * Deterministic synthetic skeletons for the explorer's unit tests (the e2e specs and the benchmark
 * use whole generated sessions from @bonsai/testkit instead): a main line of
 * agent turns with side branches, compactions (with firstKeptEntryId a few turns back), branch
 * summaries, labels, pruned tool results and metadata entries.
 */
import type { SkeletonNode, TreeSkeleton } from "@bonsai/core";

export interface SyntheticOptions {
  entries: number;
  /** start a side branch about every N entries (0 = never) */
  branchEvery?: number;
  /** append a compaction about every N entries on the main line (0 = never) */
  compactEvery?: number;
  seed?: number;
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

export function syntheticSkeleton(options: SyntheticOptions): TreeSkeleton {
  const { entries, branchEvery = 500, compactEvery = 2000, seed = 7 } = options;
  const random = rng(seed);
  const nodes: SkeletonNode[] = [];
  let t = Date.UTC(2026, 0, 1);
  const id = (i: number) => i.toString(16).padStart(8, "0");
  const push = (parentId: string | null, partial: Partial<SkeletonNode> & Pick<SkeletonNode, "type">): SkeletonNode => {
    t += 1000;
    const node: SkeletonNode = {
      id: id(nodes.length),
      parentId,
      role: null,
      timestamp: new Date(t).toISOString(),
      tokens: 0,
      preview: "",
      ...partial,
    };
    nodes.push(node);
    return node;
  };
  const turn = (parentId: string | null, n: number): string | null => {
    let parent = parentId;
    const user = push(parent, { type: "message", role: "user", tokens: 20 + Math.floor(random() * 200), preview: `request ${nodes.length}` });
    parent = user.id;
    for (let k = 0; k < n; k++) {
      const a = push(parent, { type: "message", role: "assistant", tokens: 50 + Math.floor(random() * 400), preview: `working ${nodes.length}`, toolName: "bash", thinking: random() < 0.2 });
      const r = push(a.id, { type: "message", role: "toolResult", tokens: 100 + Math.floor(random() * 2000), preview: `output ${nodes.length}`, toolName: "bash", pruned: random() < 0.05 });
      parent = r.id;
    }
    const done = push(parent, { type: "message", role: "assistant", tokens: 80, preview: `done ${nodes.length}` });
    return done.id;
  };

  let leaf: string | null = null;
  const mainLine: string[] = [];
  let sinceBranch = 0;
  let sinceCompact = 0;
  while (nodes.length < entries) {
    const before = nodes.length;
    if (random() < 0.05) leaf = push(leaf, { type: "thinking_level_change", preview: "thinking: high" }).id;
    leaf = turn(leaf, 1 + Math.floor(random() * 4));
    for (let k = before; k < nodes.length; k++) mainLine.push((nodes[k] as SkeletonNode).id);
    sinceBranch += nodes.length - before;
    sinceCompact += nodes.length - before;
    if (random() < 0.02 && leaf) leaf = push(leaf, { type: "label", preview: "label" }).id;
    if (branchEvery > 0 && sinceBranch >= branchEvery && mainLine.length > 20) {
      sinceBranch = 0;
      // a side branch from a user message's parent some way back, ending in a branch summary
      const from = mainLine[mainLine.length - 1 - Math.floor(random() * Math.min(200, mainLine.length - 1))] as string;
      let side: string | null = turn(from, 1 + Math.floor(random() * 6));
      side = push(side, { type: "branch_summary", fromId: side ?? "root", tokens: 120, preview: "The user explored an alternative" }).id;
      turn(side, 1);
    }
    if (compactEvery > 0 && sinceCompact >= compactEvery && leaf) {
      sinceCompact = 0;
      const kept = mainLine.slice(-40).find((m) => nodes[parseInt(m, 16)]?.role === "user");
      const c: SkeletonNode = push(leaf, { type: "compaction", tokens: 900, tokensBefore: 150000 + Math.floor(random() * 30000), preview: "Summary of the work so far", firstKeptEntryId: kept });
      leaf = c.id;
      mainLine.push(c.id);
    }
  }
  // a final custom message and label on the leaf so every node kind appears
  leaf = push(leaf, { type: "custom_message", customType: "note", preview: "note from an extension" }).id;
  const last = nodes[nodes.length - 1] as SkeletonNode;
  last.label = "latest";
  return { sessionId: `synthetic-${entries}`, leafId: leaf, nodes };
}
