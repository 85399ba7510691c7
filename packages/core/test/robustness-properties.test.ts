/**
 * Property tests for the reading side: any text parses without throwing and serializes back to
 * what was kept; any parent wiring (orphans, self-parents, cycles, duplicate ids) gives terminating
 * paths and a tree that holds every entry exactly once; context building never throws.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildIndex,
  buildSessionContext,
  convertToLlm,
  estimateTokens,
  findLeaves,
  getPath,
  getTree,
  parseSessionText,
  serializeSession,
  type SessionEntry,
  type TreeNode,
} from "../src/index";

const RUNS = { numRuns: 200 };

const HEADER = '{"type":"session","version":3,"id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/"}';

/** Lines mixing valid entries, junk, blanks, arrays, numbers and stray headers. */
const lineArb = fc.oneof(
  fc.constantFrom("", "   ", "not json", "[1,2]", "42", "null", '{"type":"session","id":"x"}', "{", '{"type":"message"'),
  fc.string(),
  fc.record({ type: fc.constantFrom("message", "label", "custom", "weird"), id: fc.string({ maxLength: 3 }) }).map((v) => JSON.stringify(v)),
);

/** Entries with ids from a tiny alphabet so duplicates, self-parents and cycles are common. */
const idArb = fc.constantFrom("a", "b", "c", "d", "e", "f");
const entriesArb = fc.array(
  fc.record({
    id: idArb,
    parentId: fc.oneof(idArb, fc.constant(null), fc.constant("missing")),
    kind: fc.constantFrom("user", "compaction", "branch", "label", "meta"),
    second: fc.integer({ min: 0, max: 59 }),
  }),
  { maxLength: 30 },
).map((specs) =>
  specs.map(({ id, parentId, kind, second }): SessionEntry => {
    const base = { id, parentId, timestamp: `2025-01-01T00:00:${String(second).padStart(2, "0")}.000Z` };
    switch (kind) {
      case "user":
        return { ...base, type: "message", message: { role: "user", content: `u${id}`, timestamp: 0 } } as SessionEntry;
      case "compaction":
        return { ...base, type: "compaction", summary: "S", firstKeptEntryId: "c", tokensBefore: 1 } as SessionEntry;
      case "branch":
        return { ...base, type: "branch_summary", fromId: "a", summary: "B" } as SessionEntry;
      case "label":
        return { ...base, type: "label", targetId: "a", label: "L" } as SessionEntry;
      default:
        return { ...base, type: "thinking_level_change", thinkingLevel: "high" } as SessionEntry;
    }
  }),
);

function countNodes(roots: TreeNode[]): string[] {
  const ids: string[] = [];
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop() as TreeNode;
    ids.push(node.entry.id);
    stack.push(...node.children);
  }
  return ids;
}

describe("reading never fails on bad input", () => {
  it("any lines after a header parse without throwing; kept entries serialize back line for line", () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 25 }), fc.boolean(), (lines, finalNewline) => {
        const text = [HEADER, ...lines].join("\n") + (finalNewline ? "\n" : "");
        const parsed = parseSessionText(text);
        expect(parsed.header?.id).toBe("s");
        for (const issue of parsed.issues) expect(issue.line).toBeGreaterThanOrEqual(2);
        const reparsed = parseSessionText(serializeSession(parsed.header!, parsed.entries));
        expect(reparsed.entries).toEqual(parsed.entries);
        expect(reparsed.issues).toEqual([]);
      }),
      RUNS,
    );
  });

  it("any text at all parses without throwing", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const parsed = parseSessionText(text);
        if (parsed.header === null) expect(parsed.entries).toEqual([]);
      }),
      RUNS,
    );
  });

  it("any parent wiring: paths terminate, the tree holds every entry once, contexts build", () => {
    fc.assert(
      fc.property(entriesArb, (entries) => {
        const index = buildIndex(entries);
        const winners = [...index.byId.keys()];
        expect(countNodes(getTree(entries, index)).sort()).toEqual([...winners].sort());
        for (const id of [...winners, "missing", null]) {
          const path = getPath(index, id);
          expect(new Set(path.map((e) => e.id)).size).toBe(path.length);
          if (path.length > 0) expect(path[path.length - 1]?.id).toBe(id);
          const ctx = buildSessionContext(entries, id, index);
          expect(ctx.entryIds).toHaveLength(ctx.messages.length);
          convertToLlm(ctx.messages);
          ctx.messages.forEach(estimateTokens);
        }
        for (const leaf of findLeaves(entries, index)) expect(index.children.has(leaf.id)).toBe(false);
      }),
      RUNS,
    );
  });
});
