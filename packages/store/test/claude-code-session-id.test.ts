/**
 * A Claude Code file that opens with a line of the session it continues (Claude Code's "clear
 * context and implement the plan", seen in a real Entire checkpoint): the file is the session whose
 * lines follow, so it is stored under that id, and the continued session's own file keeps its id
 * (no suffix, no session shown under another's id).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { newStore, tempDir } from "./support";

const OLD = "3ca52b62-0000-4000-8000-000000000001";
const NEW = "e9167529-0000-4000-8000-000000000002";

function line(sessionId: string, type: "user" | "assistant", uuid: string, parentUuid: string | null, text: string, second: number): string {
  const message = type === "user" ? { role: "user", content: text } : { id: `m-${uuid}`, role: "assistant", model: "claude-opus-4-8", content: [{ type: "text", text }], usage: { input_tokens: 10, output_tokens: 2 } };
  return JSON.stringify({ parentUuid, isSidechain: false, sessionId, cwd: "/w", version: "2.1.42", type, uuid, timestamp: new Date(Date.UTC(2026, 1, 16, 14, 30, second)).toISOString(), message });
}

describe("the session id of a Claude Code file", () => {
  it("is the id of the session writing it, not the id of a carried-over first line", async () => {
    const dir = tempDir();
    const oldFile = path.join(dir, `${OLD}.jsonl`);
    const newFile = path.join(dir, `${NEW}.jsonl`);
    fs.writeFileSync(oldFile, [line(OLD, "user", "o1", null, "plan the redesign", 0), line(OLD, "assistant", "o2", "o1", "here is the plan", 1), line(OLD, "user", "o3", "o2", "[Request interrupted by user for tool use]", 2)].join("\n") + "\n");
    fs.writeFileSync(newFile, [line(OLD, "user", "o3", "o2", "[Request interrupted by user for tool use]", 2), line(NEW, "user", "n1", null, "Implement the following plan", 3), line(NEW, "assistant", "n2", "n1", "implementing", 4)].join("\n") + "\n");
    const store = newStore(dir);
    const continuing = await store.importFile(newFile);
    const continued = await store.importFile(oldFile);
    expect(continuing.sessionId).toBe(NEW);
    expect(continued.sessionId).toBe(OLD);
    const rows = store.listSessions().map((s) => ({ id: s.id, headerId: s.headerId, sourcePath: s.sourcePath }));
    expect(rows.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: OLD, headerId: OLD, sourcePath: oldFile },
      { id: NEW, headerId: NEW, sourcePath: newFile },
    ].sort((a, b) => a.id.localeCompare(b.id)));
    // every line of the file is still there, the carried-over one included
    expect(store.renderJsonl(NEW)).toBe(fs.readFileSync(newFile, "utf8"));
  });
});
