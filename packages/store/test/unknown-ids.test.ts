/** Conformance case 12: moving the leaf, attaching a branch summary or labelling an unknown entry fails clearly and changes nothing. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HEADER, line, newStore, tempDir, userEntry } from "./support";

describe("unknown entry ids", () => {
  it("case 12: branch, branchWithSummary and appendLabelChange on an unknown id throw `Entry nonexistent not found`", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, line(HEADER) + line(userEntry("u1", null, "one")) + line(userEntry("u2", "u1", "two", 1)));
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId as string;
    const bytes = fs.readFileSync(file);

    expect(() => store.setLeaf(id, "nonexistent")).toThrow("Entry nonexistent not found");
    expect(() =>
      store.appendEntry(id, { type: "branch_summary", fromId: "nonexistent", summary: "s" }, { parentId: "nonexistent" }),
    ).toThrow("Entry nonexistent not found");
    expect(() => store.appendLabel(id, "nonexistent", "l")).toThrow("Entry nonexistent not found");

    expect(store.getLeaf(id)).toBe("u2");
    expect(store.loadEntries(id).map((e) => e.id)).toEqual(["u1", "u2"]);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });
});
