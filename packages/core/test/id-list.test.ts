import { describe, expect, it } from "vitest";
import { IdList } from "../src/index";

const odd = ['"q', "b\\s", "nl\n", "c\u0001", "sep\u001e", "é", "😀", '","', "\u2028", "\u007f", "\ud800", "plain", ""];

/** the ids as a store reads them: their JSON strings joined by the separator */
const fromItems = (ids: string[]): IdList => IdList.fromJsonItems(ids.map((id) => JSON.stringify(id)).join(IdList.SEPARATOR), ids.length);

/** what the array prints as inside a pretty-printed object, one level deep */
const nested = (ids: string[]): string => JSON.stringify(ids, null, 2).replaceAll("\n", "\n  ");

describe("IdList", () => {
  it("prints exactly as JSON.stringify prints the array, held as an array or as JSON text", () => {
    for (const ids of [[], ["a"], ["a", "b", "c"], odd, odd.map((x) => `${x}x`), ["a", '"', "b"]]) {
      for (const list of [IdList.of(ids), fromItems(ids)]) {
        expect(list.length).toBe(ids.length);
        expect(list.toArray()).toEqual(ids);
        expect(JSON.stringify(list)).toBe(JSON.stringify(ids));
        expect(list.prettyJson()).toBe(JSON.stringify(ids, null, 2));
        expect(list.prettyJson("  ")).toBe(nested(ids));
        expect(JSON.stringify({ ids: list }, null, 2)).toBe(JSON.stringify({ ids }, null, 2));
      }
    }
  });

  it("prints ids with nothing to escape as read, and ids written with other escapes as JSON.stringify does", () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `id-${i}-é`);
    expect(fromItems(ids).prettyJson("  ")).toBe(nested(ids));
    // escapes JSON.stringify would not write (\u0061 for "a", \/ for "/") still print as it does
    expect(IdList.fromJsonItems(['"\\u0061"', '"b\\/"'].join(IdList.SEPARATOR), 2).prettyJson("  ")).toBe(nested(["a", "b/"]));
    expect(IdList.fromJsonItems("", 0).prettyJson()).toBe("[]");
  });

  it("gives a list's ids as an array either way, and prettyJson in parts that join to it", () => {
    const ids = ["a", "b", 'q"'];
    const read = IdList.fromJsonItems(ids.map((id) => JSON.stringify(id)).join(IdList.SEPARATOR), ids.length);
    expect(IdList.array(read)).toEqual(ids);
    expect(IdList.array(ids)).toBe(ids);
    const plain = IdList.fromJsonItems(['"x"', '"y"'].join(IdList.SEPARATOR), 2);
    expect(plain.prettyJsonParts("  ")).toEqual(["[\n    ", '"x",\n    "y"', "\n  ]"]);
    expect(plain.prettyJsonParts("  ").join("")).toBe(plain.prettyJson("  "));
  });
});

