import { describe, expect, it } from "vitest";
import {
  buildIndex,
  buildSessionContext,
  childrenOf,
  defaultLeafId,
  findCommonAncestor,
  findLeaves,
  findRoots,
  getPath,
  getPathIds,
  getTree,
  resolveLabels,
  type MessageEntry,
  type SessionEntry,
  type TreeNode,
} from "../src/index";
import { SessionBuilder, assistant, user } from "./builders";

const contentOf = (entries: SessionEntry[], leaf?: string | null) =>
  buildSessionContext(entries, leaf).messages.map((m) => {
    const content = (m as { content?: unknown }).content;
    return typeof content === "string" ? content : ((content as { text?: string }[] | undefined)?.[0]?.text ?? m.role);
  });

const shape = (nodes: TreeNode[]): unknown[] => nodes.map((n) => ({ id: n.entry.id, ...(n.label ? { label: n.label } : {}), children: shape(n.children) }));

describe("B. tree, leaf, labels (pure parts; session-manager mutations live in the engine/store)", () => {
  it("case 9: a chain's path from the leaf is the whole chain", () => {
    const s = new SessionBuilder().msg(user("first")).msg(assistant("second")).msg(user("third"));
    const index = buildIndex(s.entries);
    expect(s.entries.map((e) => e.parentId)).toEqual([null, "e0", "e1"]);
    expect(defaultLeafId(s.entries)).toBe("e2");
    expect(getPathIds(index, "e2")).toEqual(["e0", "e1", "e2"]);
  });

  it("case 10: metadata entries are on the path and do not emit messages", () => {
    const s = new SessionBuilder().msg(user("hello")).entry({ type: "thinking_level_change", thinkingLevel: "high" }).msg(assistant("response"));
    expect(getPathIds(buildIndex(s.entries), "e2")).toEqual(["e0", "e1", "e2"]);
    expect(buildSessionContext(s.entries).messages).toHaveLength(2);
  });

  it("case 11: branching: children in timestamp order, context follows the branch", () => {
    const s = new SessionBuilder().msg(user("1")).msg(assistant("2")).msg(user("3")).msg(user("4"), { parentId: "e1" });
    const tree = getTree(s.entries);
    expect(shape(tree)).toEqual([{ id: "e0", children: [{ id: "e1", children: [{ id: "e2", children: [] }, { id: "e3", children: [] }] }] }]);
    expect(contentOf(s.entries)).toEqual(["1", "2", "4"]);
  });

  it("case 11: children are sorted by timestamp, ties keep file order", () => {
    const s = new SessionBuilder()
      .msg(user("root"))
      .entry({ type: "message", parentId: "e0", timestamp: "2025-01-01T00:00:09.000Z", message: user("late") })
      .entry({ type: "message", parentId: "e0", timestamp: "2025-01-01T00:00:05.000Z", message: user("early-a") })
      .entry({ type: "message", parentId: "e0", timestamp: "2025-01-01T00:00:05.000Z", message: user("early-b") });
    expect(getTree(s.entries)[0]?.children.map((n) => n.entry.id)).toEqual(["e2", "e3", "e1"]);
    expect(childrenOf(buildIndex(s.entries), "e0").map((e) => e.id)).toEqual(["e1", "e2", "e3"]);
  });

  it("case 13: leaf on load is the last entry in file order", () => {
    const s = new SessionBuilder().msg(user("e0")).msg(assistant("e1")).msg(user("e2")).msg(user("e3"), { parentId: "e1" });
    expect(defaultLeafId(s.entries)).toBe("e3");
    expect(contentOf(s.entries)).toEqual(["e0", "e1", "e3"]);
    const reordered = [s.entries[0], s.entries[1], s.entries[3], s.entries[2]] as SessionEntry[];
    expect(defaultLeafId(reordered)).toBe("e2");
    expect(contentOf(reordered)).toEqual(["e0", "e1", "e2"]);
    expect(defaultLeafId([])).toBeNull();
  });

  it("case 14: labels: last wins, empty/absent clears, label entries emit nothing, tree nodes carry them", () => {
    const s = new SessionBuilder()
      .msg(user("hello"))
      .entry({ type: "label", targetId: "e0", label: "checkpoint" });
    expect(resolveLabels(s.entries).get("e0")).toBe("checkpoint");
    expect(getTree(s.entries)[0]?.label).toBe("checkpoint");
    s.entry({ type: "label", targetId: "e0" });
    expect(resolveLabels(s.entries).has("e0")).toBe(false);
    s.entry({ type: "label", targetId: "e0", label: "first" })
      .entry({ type: "label", targetId: "e0", label: "second" })
      .entry({ type: "label", targetId: "e0", label: "third" });
    expect(resolveLabels(s.entries).get("e0")).toBe("third");
    s.entry({ type: "label", targetId: "e0", label: "" });
    expect(resolveLabels(s.entries).get("e0")).toBeUndefined();
    expect(buildSessionContext(s.entries).messages.map((m) => m.role)).toEqual(["user"]);
  });

  it("case 15: a branch summary with a null parent is a second root", () => {
    const s = new SessionBuilder().msg(user("1")).msg(assistant("2")).msg(user("3")).branchSummary("R", "root", { parentId: null });
    expect(findRoots(s.entries).map((e) => e.id)).toEqual(["e0", "e3"]);
    expect(getTree(s.entries)).toHaveLength(2);
  });

  it("case 16: an entry appended after a leaf reset (parent null) is another root", () => {
    const s = new SessionBuilder().msg(user("1")).msg(user("2"), { parentId: null });
    expect(findRoots(s.entries).map((e) => e.id)).toEqual(["e0", "e1"]);
    expect(contentOf(s.entries)).toEqual(["2"]);
  });

  it("case 17: orphans and self-parents are roots; a self-parent terminates", () => {
    const s = new SessionBuilder().msg(user("a"), { id: "a", parentId: null }).msg(user("b"), { id: "b", parentId: "missing" }).msg(user("c"), { id: "c", parentId: "c" });
    expect(findRoots(s.entries).map((e) => e.id)).toEqual(["a", "b", "c"]);
    expect(getTree(s.entries).map((n) => n.entry.id)).toEqual(["a", "b", "c"]);
    expect(contentOf(s.entries, "b")).toEqual(["b"]);
    expect(contentOf(s.entries, "c")).toEqual(["c"]);
  });

  it("case 17: a two-entry parent cycle terminates and still appears once in the tree", () => {
    const s = new SessionBuilder().msg(user("x"), { id: "x", parentId: "y" }).msg(user("y"), { id: "y", parentId: "x" });
    expect(getPathIds(buildIndex(s.entries), "x")).toEqual(["y", "x"]);
    const tree = getTree(s.entries);
    expect(shape(tree)).toEqual([{ id: "x", children: [{ id: "y", children: [] }] }]);
  });

  it("case 18: labels resolve per target after a branch is extracted", () => {
    const s = new SessionBuilder()
      .msg(user("1"))
      .msg(assistant("2"))
      .msg(user("3"))
      .entry({ type: "label", targetId: "e0", label: "L1" })
      .entry({ type: "label", targetId: "e2", label: "L3" });
    // the extracted branch keeps U1, A2 and U1's label (re-parented at A2); U3's label goes with U3
    const extracted = [s.entries[0], s.entries[1], { ...s.entries[3], parentId: "e1" }] as SessionEntry[];
    const labels = resolveLabels(extracted);
    expect(labels.get("e0")).toBe("L1");
    expect(labels.get("e2")).toBeUndefined();
  });

  it("duplicate ids: the last entry with an id wins in the index and the tree", () => {
    const s = new SessionBuilder().msg(user("old"), { id: "d" }).msg(user("next"), { parentId: "d" }).msg(user("new"), { id: "d", parentId: null });
    const index = buildIndex(s.entries);
    expect(((index.byId.get("d") as MessageEntry).message as { content: string }).content).toBe("new");
    expect(getTree(s.entries).map((n) => n.entry.id)).toEqual(["d"]);
    expect(findLeaves(s.entries).map((e) => e.id)).toEqual(["e1"]);
  });

  it("leaves, common ancestor and paths on a forked tree", () => {
    const s = new SessionBuilder()
      .msg(user("r"))
      .msg(assistant("a"))
      .msg(user("left"))
      .msg(assistant("left2"))
      .msg(user("right"), { parentId: "e1" });
    const index = buildIndex(s.entries);
    expect(findLeaves(s.entries, index).map((e) => e.id)).toEqual(["e3", "e4"]);
    expect(findCommonAncestor(index, "e3", "e4")).toBe("e1");
    expect(findCommonAncestor(index, "e3", "e2")).toBe("e2");
    expect(findCommonAncestor(index, "e3", null)).toBeNull();
    expect(findCommonAncestor(index, "e3", "unknown")).toBeNull();
    expect(getPath(index, "unknown")).toEqual([]);
    expect(getPath(index, null)).toEqual([]);
  });

  it("a 100,000-entry chain: path, tree and leaves without recursion", () => {
    const s = new SessionBuilder();
    for (let i = 0; i < 100_000; i++) s.msg(user(String(i)));
    const index = buildIndex(s.entries);
    expect(getPath(index, "e99999")).toHaveLength(100_000);
    expect(findLeaves(s.entries, index).map((e) => e.id)).toEqual(["e99999"]);
    let depth = 0;
    let node = getTree(s.entries, index)[0];
    while (node) {
      depth++;
      node = node.children[0];
    }
    expect(depth).toBe(100_000);
    expect(buildSessionContext(s.entries, undefined, index).messages).toHaveLength(100_000);
  });
});
