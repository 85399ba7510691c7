/**
 * A Claude Code session that ends on a reply Claude Code wrote itself ("You've hit your limit":
 * model `<synthetic>`, `isApiErrorMessage`, a usage of zeros; seen in a real Entire checkpoint): the
 * figure is the last usage a model reported plus the estimate after it, on that model's window, in
 * `context` on the file and on the stored session and in `ls` alike, not "0 reported" on an
 * unknown model's window.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bonsai, json } from "./run-cli";

const dir = mkdtempSync(path.join(tmpdir(), "bonsai-cc-synthetic-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { sessionId: "cc-limit", cwd: "/w", version: "2.1.80", isSidechain: false, userType: "external" };
const lines = [
  { ...base, type: "user", uuid: "u1", parentUuid: null, timestamp: "2026-05-01T10:00:00.000Z", message: { role: "user", content: "review the story" } },
  {
    ...base,
    type: "assistant",
    uuid: "a1",
    parentUuid: "u1",
    timestamp: "2026-05-01T10:00:05.000Z",
    message: { id: "msg_1", role: "assistant", model: "claude-sonnet-4-6", content: [{ type: "text", text: "Launching the review." }], stop_reason: "end_turn", usage: { input_tokens: 500, cache_read_input_tokens: 34_000, cache_creation_input_tokens: 0, output_tokens: 8 } },
  },
  { ...base, type: "user", uuid: "u2", parentUuid: "a1", timestamp: "2026-05-01T10:01:00.000Z", message: { role: "user", content: "go on" } },
  {
    ...base,
    type: "assistant",
    uuid: "a2",
    parentUuid: "u2",
    timestamp: "2026-05-01T10:01:01.000Z",
    isApiErrorMessage: true,
    message: { id: "msg_2", role: "assistant", model: "<synthetic>", content: [{ type: "text", text: "You've hit your limit · resets 8pm" }], stop_reason: "stop_sequence", usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
  },
];

interface Report {
  contextTokens: number;
  contextBasis: string;
  usage: { tokens: number; entryId: string; model: string } | null;
  contextWindow: number;
  contextWindowSource: string;
}

describe("a Claude Code session ending on a synthetic reply", () => {
  it("keeps the last usage a model reported, and that model's window", async () => {
    const file = path.join(dir, "cc-limit.jsonl");
    writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const fromFile = await json<Report>("context", file);
    expect(fromFile).toMatchObject({ contextBasis: "reported", usage: { tokens: 34_508, entryId: "a1", model: "claude-sonnet-4-6" }, contextWindow: 200_000, contextWindowSource: "known-model" });
    expect(fromFile.contextTokens).toBeGreaterThan(34_508);

    const dataDir = path.join(dir, "data");
    const imported = await bonsai("import", file, "--data-dir", dataDir);
    expect(imported.code, imported.stderr).toBe(0);
    const stored = await json<Report>("context", "cc-limit", "--data-dir", dataDir);
    expect(stored).toEqual(expect.objectContaining({ contextTokens: fromFile.contextTokens, contextBasis: "reported", contextWindow: 200_000, contextWindowSource: "known-model" }));
    const listed = await json<{ id: string; contextTokens: number }[]>("ls", "--data-dir", dataDir);
    expect(listed.map((s) => [s.id, s.contextTokens])).toEqual([["cc-limit", fromFile.contextTokens]]);
  });
});
