/**
 * The derived columns written once per stored entry: oneLine (the preview's whitespace folding,
 * written without a replacing regular expression because it runs for every entry of an import, with
 * a shortcut for prose) must give exactly what the plain definition gives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deriveColumns, FLAG_EMPTY_SUMMARY, FLAG_EXCLUDED, FLAG_ODD_MESSAGE, oneLine } from "../src/derive";
import type { SessionEntry } from "@bonsai/core";

/** the definition: whitespace runs folded, trimmed, cut at max with "…" (on the first 2 * max characters) */
function reference(text: string, max = 160): string {
  const head = text.length > max * 2 ? text.slice(0, max * 2) : text;
  const flat = head.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

describe("derived columns", () => {
  it("oneLine folds whitespace exactly as /\\s+/ and trim do (every JavaScript whitespace, surrogates, any cut)", () => {
    const chars = fc.constantFrom(" ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u1680", "\u2003", "\u2028", "\u2029", "\u202f", "\u3000", "\ufeff", "\u0085", "\u180e", "a", "é", "😀", "x");
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 700 }).map((a) => a.join("")), fc.integer({ min: 1, max: 200 }), (text, max) => oneLine(text, max) === reference(text, max)),
      { numRuns: 5000 },
    );
    // mostly words and single spaces (the shortcut for a line of prose past the cut), sometimes other whitespace
    const word = fc.array(fc.constantFrom("a", "é", "😀", "x", "-"), { minLength: 1, maxLength: 12 }).map((a) => a.join(""));
    const gap = fc.oneof({ arbitrary: fc.constant(" "), weight: 20 }, { arbitrary: fc.constantFrom("  ", "\n", "\t", " \u00a0", "\u3000"), weight: 1 });
    const prose = fc.tuple(fc.constantFrom("", " ", "\n"), fc.array(fc.tuple(word, gap), { maxLength: 80 })).map(([lead, parts]) => lead + parts.map(([w, g]) => w + g).join(""));
    fc.assert(
      fc.property(prose, fc.integer({ min: 1, max: 200 }), (text, max) => oneLine(text, max) === reference(text, max)),
      { numRuns: 5000 },
    );
    expect(oneLine("  a \n\n b  ")).toBe("a b");
    expect(oneLine("x".repeat(400))).toBe(`${"x".repeat(159)}…`);
  });

  it("flags what the stored reads cannot answer from columns alone", () => {
    const at = { id: "x", parentId: null, timestamp: "2025-01-01T00:00:00.000Z" };
    const flags = (e: Record<string, unknown>): number => deriveColumns({ ...at, ...e } as unknown as SessionEntry, false).flags;
    expect(flags({ type: "message", message: "text" }) & FLAG_ODD_MESSAGE).toBe(FLAG_ODD_MESSAGE);
    expect(flags({ type: "message", message: [{ role: "user" }] }) & FLAG_ODD_MESSAGE).toBe(FLAG_ODD_MESSAGE);
    expect(flags({ type: "message", message: { role: 7, content: "x" } }) & FLAG_ODD_MESSAGE).toBe(FLAG_ODD_MESSAGE);
    expect(flags({ type: "message", message: null })).toBe(0);
    expect(flags({ type: "message", message: { role: "user", content: "x" } })).toBe(0);
    expect(flags({ type: "message", message: { role: "bashExecution", command: "ls", output: "", excludeFromContext: true } })).toBe(FLAG_EXCLUDED);
    expect(flags({ type: "message", message: { role: "pythonExecution", code: "1", output: "", excludeFromContext: false } })).toBe(0);
    expect(flags({ type: "branch_summary", fromId: "a", summary: "" })).toBe(FLAG_EMPTY_SUMMARY);
    expect(flags({ type: "branch_summary", fromId: "a", summary: "s" })).toBe(0);
  });
});
