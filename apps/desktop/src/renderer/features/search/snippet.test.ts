import { describe, expect, it } from "vitest";
import { queryWords, snippetParts } from "./snippet";

describe("snippetParts", () => {
  it("marks [[double-bracketed]] matches (the contract's form)", () => {
    expect(snippetParts("run the [[migration]] and [[tests]]!")).toEqual([
      { text: "run the ", match: false },
      { text: "migration", match: true },
      { text: " and ", match: false },
      { text: "tests", match: true },
      { text: "!", match: false },
    ]);
  });

  it("a match inside the text's own brackets keeps them as text", () => {
    expect(snippetParts("see arr[0] and [[[Parser]]] in [notes]")).toEqual([
      { text: "see arr[0] and [", match: false },
      { text: "Parser", match: true },
      { text: "] in [notes]", match: false },
    ]);
  });

  it("marks [single-bracketed] query words and keeps other brackets as text", () => {
    expect(snippetParts("see arr[0] and the [Parser] for [x]", "parser")).toEqual([
      { text: "see arr[0] and the ", match: false },
      { text: "Parser", match: true },
      { text: " for [x]", match: false },
    ]);
  });

  it("matches query prefixes (the store searches by prefix)", () => {
    expect(snippetParts("[migrations] done", "migrat")).toEqual([
      { text: "migrations", match: true },
      { text: " done", match: false },
    ]);
  });

  it("keeps unbalanced markers and empty snippets", () => {
    expect(snippetParts("a [[b")).toEqual([{ text: "a [[b", match: false }]);
    expect(snippetParts("a [b", "b")).toEqual([{ text: "a [b", match: false }]);
    expect(snippetParts("")).toEqual([]);
  });

  it("reads the words of a query", () => {
    expect(queryWords('"Parser" AND tests-2')).toEqual(["parser", "tests", "2"]);
  });
});
