import { describe, expect, it } from "vitest";
import { CONTEXT_LIST_HEAD, CONTEXT_LIST_TAIL, listedOf } from "../src/index";

describe("listedOf", () => {
  it("lists a list up to head + tail items whole, as a copy", () => {
    const items = Array.from({ length: CONTEXT_LIST_HEAD + CONTEXT_LIST_TAIL }, (_, i) => i);
    const listed = listedOf(items);
    expect(listed).toEqual(items);
    expect(listed).not.toBe(items);
  });

  it("lists a longer one as its first head and newest tail items", () => {
    const items = Array.from({ length: 70_000 }, (_, i) => i);
    const listed = listedOf(items);
    expect(listed).toHaveLength(CONTEXT_LIST_HEAD + CONTEXT_LIST_TAIL);
    expect(listed.slice(0, CONTEXT_LIST_HEAD)).toEqual(items.slice(0, CONTEXT_LIST_HEAD));
    expect(listed.slice(CONTEXT_LIST_HEAD)).toEqual(items.slice(70_000 - CONTEXT_LIST_TAIL));
    expect(listedOf([1, 2, 3, 4, 5], 1, 2)).toEqual([1, 4, 5]);
  });
});
