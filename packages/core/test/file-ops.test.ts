import { describe, expect, it } from "vitest";
import {
  addFileListDetails,
  computeFileLists,
  createFileOperations,
  addFileOpCode,
  extractFileOpsFromMessage,
  fileOpCodesOf,
  formatFileOperations,
  parseFileListsFromSummary,
  recoverFileLists,
} from "../src/file-ops";
import type { AgentMessage } from "../src/entries";
import { assistantMessage, call } from "./support/notation";

describe("H. file operations", () => {
  it("case 74: computeFileLists", () => {
    const ops = { read: new Set(["b.ts", "a.ts", "C.ts", "x.ts"]), written: new Set(["a.ts"]), edited: new Set(["x.ts"]) };
    expect(computeFileLists(ops)).toEqual({ readFiles: ["C.ts", "b.ts"], modifiedFiles: ["a.ts", "x.ts"] });
  });

  it("case 75: extraction filters", () => {
    const ops = createFileOperations();
    const message = assistantMessage([
      call("read", { path: "" }),
      call("read", { file: "a" }),
      call("grep", { path: "g" }),
      call("edit", { path: "e" }),
      call("write", { path: 5 }),
      { type: "text", text: "read path=t" },
    ]);
    extractFileOpsFromMessage(message, ops);
    const user = { role: "user", content: [call("edit", { path: "u" })], timestamp: 0 } as unknown as AgentMessage;
    extractFileOpsFromMessage(user, ops);
    expect([...ops.read]).toEqual([]);
    expect([...ops.written]).toEqual([]);
    expect([...ops.edited]).toEqual(["e"]);
  });

  it("file operation codes: what a store keeps per message gives the same sets as the extraction", () => {
    const message = assistantMessage([
      call("read", { path: "r" }),
      call("write", { path: "w" }),
      call("edit", { path: "e/f" }),
      call("read", { path: "" }),
      call("grep", { path: "g" }),
      call("toString", { path: "t" }),
      call("edit", null as unknown as Record<string, unknown>),
    ]);
    expect(fileOpCodesOf(message)).toEqual(["rr", "ww", "ee/f"]);
    const fromCodes = createFileOperations();
    for (const code of fileOpCodesOf(message)) addFileOpCode(code, fromCodes);
    const extracted = createFileOperations();
    extractFileOpsFromMessage(message, extracted);
    expect(fromCodes).toEqual(extracted);
    expect(fileOpCodesOf({ role: "user", content: [call("edit", { path: "u" })], timestamp: 0 } as unknown as AgentMessage)).toEqual([]);
  });

  it("case 76: formatting, normative layout (D1)", () => {
    expect(formatFileOperations(["a.ts", "b.ts"], ["c.ts"])).toBe(
      "\n\n<read-files>\na.ts\nb.ts\n</read-files>\n\n<modified-files>\nc.ts\n</modified-files>",
    );
    expect(formatFileOperations([], ["c.ts", "d.ts"])).toBe("\n\n<modified-files>\nc.ts\nd.ts\n</modified-files>");
    expect(formatFileOperations([], [])).toBe("");
  });

  it("case 76: formatting, omp-exact layout", () => {
    const omp = { layout: "omp-exact" } as const;
    expect(formatFileOperations(["a.ts", "b.ts"], ["c.ts"], omp)).toBe(
      "<read-files>\na.ts\\nb.ts\n</read-files><modified-files>\nc.ts\n</modified-files>",
    );
    expect(formatFileOperations([], ["c.ts", "d.ts"], omp)).toBe("<modified-files>\nc.ts\\nd.ts\n</modified-files>");
    expect(formatFileOperations([], [], omp)).toBe("");
  });

  it("cumulative rule: previous modified files count as edited, malformed details are ignored", () => {
    const ops = createFileOperations();
    addFileListDetails({ readFiles: ["r", 3], modifiedFiles: ["m"] }, ops);
    addFileListDetails({ readFiles: "nope" }, ops);
    addFileListDetails(null, ops);
    expect([...ops.read]).toEqual(["r"]);
    expect([...ops.edited]).toEqual(["m"]);
  });
});

describe("file lists recovered from summary text", () => {
  it("round-trips both layouts, tags glued mid-line included", () => {
    const lists = { readFiles: ["a.ts", "b.ts"], modifiedFiles: ["c.ts", "d.ts"] };
    for (const layout of ["normative", "omp-exact"] as const) {
      const text = `## Next Steps\n1. go${formatFileOperations(lists.readFiles, lists.modifiedFiles, { layout })}`;
      expect(parseFileListsFromSummary(text)).toEqual(lists);
    }
  });

  it("merges repeated tag blocks without duplicates and ignores text without tags", () => {
    const text = "s<read-files>\na\n</read-files>\n\n<read-files>\na\nb\n</read-files>";
    expect(parseFileListsFromSummary(text)).toEqual({ readFiles: ["a", "b"], modifiedFiles: [] });
    expect(parseFileListsFromSummary("no tags here")).toEqual({ readFiles: [], modifiedFiles: [] });
  });

  it("prefers details over the text", () => {
    const summary = "s\n\n<read-files>\nfrom-text\n</read-files>";
    expect(recoverFileLists({ summary, details: { readFiles: ["from-details"], modifiedFiles: [] } })).toEqual({
      readFiles: ["from-details"],
      modifiedFiles: [],
    });
    expect(recoverFileLists({ summary, details: { custom: 1 } })).toEqual({ readFiles: ["from-text"], modifiedFiles: [] });
  });
});
