/**
 * printJson's text is JSON.stringify(value, null, 2)'s, also when a report's id lists are printed
 * from the text a store read them as (IdList).
 */
import { IdList } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { printJson, prettyJson, type Io } from "../src/output";

/** an IdList as a store gives it: the ids' JSON strings joined by the separator */
const read = (ids: string[]): IdList => IdList.fromJsonItems(ids.map((id) => JSON.stringify(id)).join(IdList.SEPARATOR), ids.length);

describe("prettyJson", () => {
  it("prints a report with id lists exactly as JSON.stringify prints it with arrays", () => {
    const ids = ["a", 'q"', "b\\s", "nl\n", "é", "😀"];
    const report = { leafId: "x\ty", entryIds: read(ids), empty: read([]), held: IdList.of(["k"]), nested: { list: [1, { deep: "v\n" }], none: null }, gone: undefined, total: 3 };
    const asArrays = { ...report, entryIds: ids, empty: [], held: ["k"] };
    expect(prettyJson(report)).toBe(JSON.stringify(asArrays, null, 2));
    expect(prettyJson({ entryIds: read(["z"]) })).toBe(JSON.stringify({ entryIds: ["z"] }, null, 2));
  });

  it("prints anything else as JSON.stringify does (an IdList deeper in, arrays, values with toJSON)", () => {
    for (const value of [{ deeper: { ids: read(["a", "b"]) } }, [read(["a"])], { when: new Date(0), ids: read(["c"]) }, {}, "text", null]) {
      expect(prettyJson(value)).toBe(JSON.stringify(value, null, 2));
    }
  });

  it("printJson writes the same text and a store's id list as a write of its own, the text it was read as", () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `id-${i}`);
    const items = ids.map((id) => JSON.stringify(id)).join(IdList.SEPARATOR);
    const writes: string[] = [];
    const io: Io = { stdout: (text) => void writes.push(typeof text === "string" ? text : Buffer.from(text).toString()), stderr: () => undefined };
    const report = { entryIds: IdList.fromJsonItems(items, ids.length), gone: undefined, roles: read(["user", "assistant"]), total: 2 };
    printJson(io, report);
    expect(writes.join("")).toBe(`${JSON.stringify({ ...report, entryIds: ids, roles: ["user", "assistant"] }, null, 2)}\n`);
    expect(writes).toContain(items);
    for (const value of [{ only: read(["a"]) }, { none: undefined }, [1, 2]]) {
      writes.length = 0;
      printJson(io, value);
      expect(writes.join("")).toBe(`${JSON.stringify(value, null, 2)}\n`);
    }
  });
});
