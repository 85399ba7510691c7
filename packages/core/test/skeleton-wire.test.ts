/**
 * The skeleton's wire form: exact round trips (property-tested over odd trees and odd values),
 * a clear error for a malformed packet, and the size it saves on a typical session.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SkeletonNode, TreeSkeleton } from "../src/skeleton";
import { DANGLING_PARENT, lazyPackedSkeleton, NO_PARENT, packSkeleton, previewHeads, SkeletonWireError, timeColumnWriter, unpackSkeleton } from "../src/skeleton-wire";

const idArb = fc.stringMatching(/^[0-9a-f]{1,8}$/u);
const timestampArb = fc.oneof(
  fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString()),
  fc.constantFrom("2025-06-01T09:00:08Z", "2025-06-01T09:00:08.1+02:00", "", "not a date", "2025-06-01T09:00:08.114Z"),
);
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const nodeArb = (ids: string[]) =>
  fc
    .record({
      parentId: fc.oneof(fc.constant(null), fc.constantFrom(...ids), idArb.map((id) => `gone-${id}`)),
      type: fc.constantFrom("message", "compaction", "branch_summary", "label", "custom", "mystery_type"),
      role: fc.constantFrom(null, "user", "assistant", "toolResult", "bashExecution"),
      timestamp: timestampArb,
      tokens: fc.nat(),
      preview: fc.string({ maxLength: 40 }),
      label: optional(fc.string({ maxLength: 10 })),
      toolName: optional(fc.constantFrom("bash", "read", "edit,bash")),
      pruned: optional(fc.boolean()),
      stopReason: optional(fc.constantFrom("error", "aborted")),
      customType: optional(fc.string({ maxLength: 8 })),
      firstKeptEntryId: optional(fc.constantFrom(...ids)),
      fromId: optional(fc.constantFrom(...ids)),
      fromExtension: optional(fc.boolean()),
      offline: optional(fc.boolean()),
      tokensBefore: optional(fc.nat()),
      thinking: optional(fc.boolean()),
    })
    .map((fields) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));

const skeletonArb: fc.Arbitrary<TreeSkeleton> = fc.uniqueArray(idArb, { minLength: 1, maxLength: 30 }).chain((ids) =>
  fc.record({
    sessionId: fc.string({ minLength: 1, maxLength: 12 }),
    leafId: fc.oneof(fc.constant(null), fc.constantFrom(...ids)),
    nodes: fc.tuple(...ids.map((id) => nodeArb(ids).map((rest) => ({ id, ...rest }) as SkeletonNode))),
  }),
);

/** A skeleton shaped like a real session: a chain of messages, one tool call in three. */
function typicalSkeleton(n: number): TreeSkeleton {
  const nodes: SkeletonNode[] = [];
  let ms = Date.parse("2026-03-01T10:00:00.000Z");
  for (let i = 0; i < n; i++) {
    ms += 1000 + ((i * 7919) % 20_000);
    const role = i % 3 === 0 ? "user" : i % 3 === 1 ? "assistant" : "toolResult";
    nodes.push({
      id: (0x10000000 + i * 2654435761).toString(16).slice(-8),
      parentId: i === 0 ? null : nodes[i - 1]!.id,
      type: "message",
      role,
      timestamp: new Date(ms).toISOString(),
      tokens: 40 + ((i * 31) % 900),
      preview: `step ${i}: run the tests again and look at the failing case in the parser`,
      ...(role === "toolResult" ? { toolName: "bash" } : {}),
    });
  }
  return { sessionId: "typical", leafId: nodes[n - 1]!.id, nodes };
}

describe("skeleton wire form", () => {
  it("round-trips every skeleton exactly, through JSON", () => {
    fc.assert(
      fc.property(skeletonArb, (skeleton) => {
        const wire = JSON.parse(JSON.stringify(packSkeleton(skeleton))) as ReturnType<typeof packSkeleton>;
        // (through JSON: fast-check builds objects without a prototype)
        expect(unpackSkeleton(wire)).toStrictEqual(JSON.parse(JSON.stringify(skeleton)));
      }),
      { numRuns: 300 },
    );
  });

  it("with lazy timestamps, gives every field of every node the same (the timestamp made when read)", () => {
    fc.assert(
      fc.property(skeletonArb, (skeleton) => {
        const wire = JSON.parse(JSON.stringify(packSkeleton(skeleton, { previews: "heads" }))) as ReturnType<typeof packSkeleton>;
        const text = unpackSkeleton(wire);
        const lazy = unpackSkeleton(wire, { timestamps: "lazy" });
        expect(lazy.leafId).toBe(text.leafId);
        lazy.nodes.forEach((node, i) => {
          const plain = text.nodes[i]!;
          // the same fields as own properties, the timestamp from the getter
          expect(Object.keys(node).sort()).toEqual(Object.keys(plain).filter((k) => k !== "timestamp").sort());
          expect({ ...node, timestamp: node.timestamp }).toStrictEqual(plain);
        });
      }),
      { numRuns: 200 },
    );
  });

  it("keeps absent optional fields absent and explicit false values false", () => {
    const skeleton: TreeSkeleton = {
      sessionId: "s",
      leafId: "b",
      nodes: [
        { id: "a", parentId: null, type: "message", role: "user", timestamp: "2026-01-01T00:00:00.000Z", tokens: 3, preview: "hi" },
        { id: "b", parentId: "a", type: "message", role: "toolResult", timestamp: "2026-01-01T00:00:01.000Z", tokens: 9, preview: "out", pruned: false, toolName: "bash" },
      ],
    };
    const back = unpackSkeleton(packSkeleton(skeleton));
    expect(back.nodes[0]).not.toHaveProperty("pruned");
    expect(back.nodes[1]!.pruned).toBe(false);
    expect(back).toStrictEqual(skeleton);
  });

  it("writes parents as positions, with a parent missing from the session kept by its id", () => {
    const packed = packSkeleton({
      sessionId: "s",
      leafId: null,
      nodes: [
        { id: "a", parentId: null, type: "message", role: "user", timestamp: "2026-01-01T00:00:00.000Z", tokens: 1, preview: "" },
        { id: "b", parentId: "a", type: "message", role: "assistant", timestamp: "2026-01-01T00:00:02.500Z", tokens: 1, preview: "" },
        { id: "c", parentId: "lost", type: "label", role: null, timestamp: "yesterday", tokens: 0, preview: "" },
      ],
    });
    expect(packed.parents).toEqual([NO_PARENT, 0, DANGLING_PARENT]);
    expect(packed.danglingParents).toEqual([2, "lost"]);
    expect(packed.times).toEqual([Date.parse("2026-01-01T00:00:00.000Z"), 2500, "yesterday"]);
    expect(packed.roles).toEqual([0, 1, -1]);
  });

  it("names what is wrong with a malformed packet", () => {
    const good = packSkeleton(typicalSkeleton(5));
    expect(() => unpackSkeleton({ ...good, v: 2 as 1 })).toThrow(SkeletonWireError);
    expect(() => unpackSkeleton({ ...good, tokens: [1] })).toThrow("tokens has 1 values for 5 entries");
    expect(() => unpackSkeleton({ ...good, parents: [NO_PARENT, 9, 1, 2, 3] })).toThrow("entry 1 has parent position 9");
    expect(() => unpackSkeleton({ ...good, types: [0, 0, 7, 0, 0] })).toThrow("entry 2 has type code 7");
    expect(() => unpackSkeleton({ ...good, sparse: { label: [99, "x"] } })).toThrow("label names entry 99");
    expect(() => unpackSkeleton({ ...good, previewAt: [0, 2] })).toThrow("previews has 5 values for 2 entries");
    expect(() => unpackSkeleton({ ...good, previewAt: [3, 1], previews: ["x", "y"] })).toThrow("previewAt is not ascending positions of entries");
  });

  it("with the previews of the heads only, gives back every other field exactly and marks the previews left out", () => {
    fc.assert(
      fc.property(skeletonArb, (skeleton) => {
        const heads = previewHeads(skeleton);
        const wire = JSON.parse(JSON.stringify(packSkeleton(skeleton, { previews: "heads" }))) as ReturnType<typeof packSkeleton>;
        const plain = JSON.parse(JSON.stringify(skeleton)) as TreeSkeleton;
        const expected = { ...plain, nodes: plain.nodes.map((n, i) => (heads[i] ? n : { ...n, preview: "", previewLater: true })) };
        expect(unpackSkeleton(wire)).toStrictEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("counts as heads what the tree may draw without expanding a run, and not the middle of a run", () => {
    const at = (id: string, parentId: string | null, role: string | null, more: Partial<SkeletonNode> = {}): SkeletonNode => ({
      id,
      parentId,
      type: role === null ? "label" : "message",
      role,
      timestamp: "2026-01-01T00:00:00.000Z",
      tokens: 1,
      preview: id,
      ...more,
    });
    // r (root) - u (user) - a1 - t1 - a2 - t2 (branch point) - a3 (leaf) | b (other leaf); a compaction keeps t1
    const skeleton: TreeSkeleton = {
      sessionId: "s",
      leafId: "a3",
      nodes: [
        at("r", null, "user"),
        at("u", "r", "user"),
        at("a1", "u", "assistant"),
        at("t1", "a1", "toolResult"),
        at("a2", "t1", "assistant"),
        at("x1", "a2", "toolResult"),
        at("x2", "x1", "assistant"),
        at("t2", "x2", "toolResult"),
        at("a3", "t2", "assistant"),
        at("b", "t2", "assistant"),
        at("c", "b", null, { type: "compaction", firstKeptEntryId: "t1" }),
      ],
    };
    const heads = previewHeads(skeleton);
    const named = skeleton.nodes.filter((_, i) => heads[i]).map((n) => n.id);
    // a1 follows the user message u (not pinned), x1 and x2 sit inside a run
    expect(named).toEqual(["r", "u", "t1", "a2", "t2", "a3", "b", "c"]);
  });

  it("writes the times column as parsing every timestamp would, for timestamps of one day in and out of Date's form", () => {
    // what the column means: ms after the previous exact timestamp, else the text
    const reference = (texts: string[]) => {
      let previous = 0;
      return texts.map((text) => {
        const ms = Date.parse(text);
        if (!Number.isFinite(ms) || new Date(ms).toISOString() !== text) return text;
        const delta = ms - previous;
        previous = ms;
        return delta;
      });
    };
    const digit = fc.constantFrom(..."0123456789");
    const odd = fc.constantFrom(..."0123456789:.Z+a ");
    // mostly well-formed times of two days, some with any character anywhere in the time part
    const timeArb = fc.oneof(
      fc.tuple(fc.constantFrom("2026-03-01T", "2026-03-02T", "1999-12-31T"), fc.array(digit, { minLength: 9, maxLength: 9 })).map(
        ([day, d]) => `${day}${d[0]}${d[1]}:${d[2]}${d[3]}:${d[4]}${d[5]}.${d[6]}${d[7]}${d[8]}Z`,
      ),
      fc.tuple(fc.constantFrom("2026-03-01T", "2026-02-30T"), fc.array(odd, { minLength: 13, maxLength: 13 })).map(([day, c]) => day + c.join("")),
      timestampArb,
    );
    fc.assert(
      fc.property(fc.array(timeArb, { maxLength: 40 }), (texts) => {
        const write = timeColumnWriter();
        expect(texts.map((t) => write(t))).toEqual(reference(texts));
      }),
      { numRuns: 500 },
    );
  });

  it("is under half the size of the object form on a typical session", () => {
    const skeleton = typicalSkeleton(2000);
    const objects = JSON.stringify(skeleton).length;
    const packed = JSON.stringify(packSkeleton(skeleton)).length;
    expect(packed / objects).toBeLessThan(0.5);
  });
});

describe("a packed skeleton parsed when first read", () => {
  const skeleton: TreeSkeleton = {
    sessionId: "s",
    leafId: "b",
    nodes: [
      { id: "a", parentId: null, type: "message", role: "user", timestamp: "2025-06-01T09:00:00.000Z", tokens: 3, preview: "hello…" },
      { id: "b", parentId: "a", type: "message", role: "assistant", timestamp: "2025-06-01T09:00:01.000Z", tokens: 5, preview: "hi", toolName: "bash" },
    ],
  };

  it("is the parsed skeleton field for field: read, spread, serialized, cloned and unpacked", () => {
    for (const packed of [packSkeleton(skeleton), packSkeleton(skeleton, { previews: "heads" })]) {
      const json = JSON.stringify(packed);
      const lazy = lazyPackedSkeleton(json);
      expect(lazy.ids).toEqual(["a", "b"]);
      expect({ ...lazy }).toEqual(packed);
      expect(JSON.parse(JSON.stringify(lazy))).toEqual(packed);
      expect(structuredClone(lazy)).toEqual(packed);
      expect(unpackSkeleton(lazy)).toEqual(unpackSkeleton(packed));
    }
  });

  it("parses its text once, and only when a field is read", () => {
    const json = JSON.stringify(packSkeleton(skeleton));
    const parse = JSON.parse;
    let parses = 0;
    JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      parses++;
      return parse(text, reviver);
    }) as typeof JSON.parse;
    try {
      const lazy = lazyPackedSkeleton(json);
      expect(parses).toBe(0);
      void lazy.leafId;
      void lazy.parents;
      void lazy.sparse;
      expect(parses).toBe(1);
    } finally {
      JSON.parse = parse;
    }
  });
});
