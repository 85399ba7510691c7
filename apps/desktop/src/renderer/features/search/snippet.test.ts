import { describe, expect, it } from "vitest";
import { snippetParts } from "./snippet";

describe("snippetParts", () => {
  it("marks the wrapped matches", () => {
    expect(snippetParts("run the [[migration]] and [[tests]]!")).toEqual([
      { text: "run the ", match: false },
      { text: "migration", match: true },
      { text: " and ", match: false },
      { text: "tests", match: true },
      { text: "!", match: false },
    ]);
  });

  it("keeps unbalanced markers as text", () => {
    expect(snippetParts("a [[b")).toEqual([{ text: "a [[b", match: false }]);
    expect(snippetParts("")).toEqual([]);
  });
});
