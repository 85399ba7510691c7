import { describe, expect, it } from "vitest";
import { contract } from "@bonsai/ipc";
import { contractSnippets } from "../src/search-snippet";
import { importLines, useBackend } from "./support";

const backend = useBackend();

const TEXTS = ["Run the migration and the tests, then see arr[0] and [Parser] in the [notes].", "The parsers are done; [tests] pass."];

async function search(query: string): Promise<string[]> {
  const lines = [
    { type: "session", version: 3, id: "s-search", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp/p" },
    ...TEXTS.map((text, i) => ({
      type: "message",
      id: `u${i}`,
      parentId: i === 0 ? null : `u${i - 1}`,
      timestamp: `2026-01-01T00:00:0${i + 1}.000Z`,
      message: { role: "user", content: text, timestamp: i + 1 },
    })),
  ];
  await importLines(backend(), lines);
  const r = await backend().dispatch("searchSessions", { query });
  if (!r.ok) throw new Error(r.error.message);
  return contract.searchSessions.output
    .parse(r.value)
    .hits.map((h) => h.snippet)
    .sort();
}

describe("search snippets mark matches as [[word]] (the contract)", () => {
  it("whole words, with the text's own brackets kept as text", async () => {
    expect(await search("migration tests")).toEqual(["Run the [[migration]] and the [[tests]], then see arr[0] and [Parser] in the [notes]."]);
    expect(await search("parser")).toEqual(["Run the migration and the tests, then see arr[0] and [[[Parser]]] in the [notes]."]);
  });

  it("prefixes and phrases", async () => {
    expect(await search("pars*")).toEqual(["Run the migration and the tests, then see arr[0] and [[[Parser]]] in the [notes].", "The [[parsers]] are done; [tests] pass."]);
    expect(await search('"the tests"')).toEqual(["Run the migration and [[the tests]], then see arr[0] and [Parser] in the [notes]."]);
  });

  it("a converter leaves snippets without the query's matches alone", () => {
    const convert = contractSnippets("notes");
    expect(convert("see [x] and arr[0]")).toBe("see [x] and arr[0]");
    expect(convert("the [notes] and [[notes]]")).toBe("the [[notes]] and [[[notes]]]");
    expect(convert("")).toBe("");
  });
});
