/**
 * A session whose header id cannot be typed or carried as it is (`../../../etc`, `/`, `\`, NUL, an
 * option-like or very long id) is imported under an addressable store id (store/src/session-id.ts)
 * and every command that takes a stored session reaches it; the file is not changed and the header
 * id is kept as `headerId`. Never imported-but-unaddressable.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAddressableId } from "../../../packages/store/src/session-id";
import { bonsai, json } from "./run-cli";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-ids-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const HOSTILE_IDS = ["../../../etc", "a/b", "a\\b", "nul\u0000inside", "--help", "-x", ".hidden", "s.jsonl", "x".repeat(5_000), " spaced ", "new\nline"];

function writeSession(headerId: string): string {
  const file = path.join(dir, "s.jsonl");
  const lines = [
    { type: "session", version: 3, id: headerId, timestamp: "2025-01-01T00:00:00.000Z", cwd: dir },
    { type: "message", id: "u1", parentId: null, timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "hello there", timestamp: 1 } },
    { type: "message", id: "a1", parentId: "u1", timestamp: "2025-01-01T00:00:02.000Z", message: { role: "assistant", content: [{ type: "text", text: "hi" }], api: "x", provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: 2 } },
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return file;
}

describe("a hostile session id in a file's header", () => {
  it.each(HOSTILE_IDS.map((id) => ({ id, shown: JSON.stringify(id.slice(0, 24)) })))("$shown: imported under an id every command reaches", async ({ id: headerId }) => {
    const file = writeSession(headerId);
    const before = readFileSync(file);
    const data = path.join(dir, "data");
    const imported = await bonsai("import", file, "--data-dir", data);
    expect(imported.code, imported.stderr).toBe(0);
    const [session] = await json<{ id: string; headerId: string }[]>("ls", "--data-dir", data);
    expect(session!.headerId).toBe(headerId);
    const id = session!.id;
    expect(isAddressableId(id), id).toBe(true);
    expect(id).not.toMatch(/[/\\]|^-/u);
    for (const argv of [["context", id], ["plan", id], ["prune", id, "--dry-run"], ["export", id], ["search", "hello", "--session", id], ["whatif", id]]) {
      const r = await bonsai(...argv, "--data-dir", data);
      expect(r.stderr, argv.join(" ")).toBe("");
      expect(r.code, argv.join(" ")).toBe(0);
    }
    expect((await bonsai("search", "hello", "--session", id, "--data-dir", data)).stdout).toContain("hello");
    const moved = await bonsai("navigate", id, "a1", "--data-dir", data);
    expect(moved.code, moved.stderr).toBe(0);
    expect(readFileSync(file).subarray(0, before.length).equals(before), "the header and entries are unchanged").toBe(true);
  }, 300_000);

  it("an ordinary header id stays the store id", async () => {
    const file = writeSession("019dd1b7-a5a1-776d-a01b-8e0a84059557");
    await bonsai("import", file, "--data-dir", path.join(dir, "data"));
    const [session] = await json<{ id: string }[]>("ls", "--data-dir", path.join(dir, "data"));
    expect(session!.id).toBe("019dd1b7-a5a1-776d-a01b-8e0a84059557");
  });
});
