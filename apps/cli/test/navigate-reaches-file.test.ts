/**
 * `bonsai navigate SID TARGET` without a summary reaches the file: pi's own SessionManager, opening
 * the file as pi resumes it (its last entry is the leaf), builds the context at TARGET; Undo (the
 * app's, through the backend) returns the context pi builds from the file to what it was.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { createBackend } from "@bonsai/backend";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callParsed } from "../../../packages/backend/test/support";
import { bonsai } from "./run-cli";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-navigate-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const t = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();

/** u1 -> a1 -> u2 -> a2 -> u3 -> a3 */
function writeSession(): string {
  const file = path.join(dir, "s.jsonl");
  const lines: unknown[] = [{ type: "session", version: 3, id: "sess-nav", timestamp: t(0), cwd: dir }];
  let parent: string | null = null;
  for (let i = 1; i <= 3; i++) {
    const user = { role: "user", content: `question ${i}`, timestamp: i * 2 };
    const assistant = { role: "assistant", content: [{ type: "text", text: `answer ${i}` }], api: "x", provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: i * 2 + 1 };
    lines.push({ type: "message", id: `u${i}`, parentId: parent, timestamp: t(i * 2), message: user });
    lines.push({ type: "message", id: `a${i}`, parentId: `u${i}`, timestamp: t(i * 2 + 1), message: assistant });
    parent = `a${i}`;
  }
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return file;
}

/** the context pi builds when it resumes `file` (or at `leaf`, as pi's /tree would put it) */
function piContext(file: string, leaf?: string): unknown {
  const copy = path.join(mkdtempSync(path.join(dir, "pi-")), "s.jsonl");
  copyFileSync(file, copy);
  const manager = SessionManager.open(copy, path.dirname(copy));
  if (leaf !== undefined) manager.branch(leaf);
  return manager.buildSessionContext().messages;
}

describe("bonsai navigate without a summary", () => {
  it("appends a bonsai-branch entry at the target: pi resumes with the context at the target", async () => {
    const file = writeSession();
    const atTarget = piContext(file, "a1");
    const r = await bonsai("navigate", file, "a1", "--data-dir", path.join(dir, "data"));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Moved the leaf of session \S+ from a3 to a1, with entry \S+ in the file so that the agent resumes there\.\n$/);
    const last = JSON.parse(readFileSync(file, "utf8").trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({ type: "custom", customType: "bonsai-branch", parentId: "a1" });
    expect(piContext(file)).toEqual(atTarget);
    expect((piContext(file) as unknown[]).length).toBe(2);
  });

  it("to a user message: pi resumes at its parent (the message goes back to the editor)", async () => {
    const file = writeSession();
    const r = await bonsai("navigate", file, "u2", "--data-dir", path.join(dir, "data"));
    expect(r.code).toBe(0);
    expect(piContext(file)).toEqual(piContext(file, "a1"));
  });

  it("in the app, then Undo: pi resumes at the target, then with the context it had before the switch", async () => {
    const file = writeSession();
    const before = piContext(file);
    const backend = createBackend({ dataDir: path.join(dir, "data"), env: { BONSAI_SESSIONS_DIRS: dir } });
    try {
      const sessionId = (await callParsed(backend, "importSessions", { paths: [file] })).results[0]!.sessionId!;
      await callParsed(backend, "navigate", { sessionId, targetId: "a1", summarize: false });
      expect(piContext(file)).toEqual(piContext(file, "a1"));
      expect((await callParsed(backend, "getUndo", { sessionId })).undo).toMatchObject({ kind: "branch" });
      await callParsed(backend, "undo", { sessionId });
    } finally {
      await backend.close();
    }
    expect(piContext(file)).toEqual(before);
    expect((piContext(file) as unknown[]).length).toBe(6);
  });
});
