/**
 * One SourceFormat per file: a known session's file rewritten by another agent is read as that
 * agent's session from then on (a Claude Code file that became a pi file is writable; a pi file that
 * became a Claude Code file is read-only), with the old format's state left behind.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ReadOnlySessionError } from "../src/index";
import { copyInto, FIXTURES, HEADER, line, newStore, tempDir, userEntry } from "./support";

const CLAUDE = path.join(FIXTURES, "real", "claude-code");
const CLAUDE_FILE = fs.existsSync(CLAUDE) ? fs.readdirSync(CLAUDE).filter((f) => f.endsWith(".jsonl")).sort()[0] : undefined;
const SKIP = CLAUDE_FILE === undefined ? `real Claude Code sessions not found at ${CLAUDE}: skipped` : "";
if (SKIP) console.warn(SKIP);

const PI_TEXT = line(HEADER) + line(userEntry("a", null, "hello", 1)) + line(userEntry("b", "a", "again", 2));

describe.skipIf(SKIP !== "")("a session's file rewritten in another agent's format", () => {
  it("a Claude Code file that became a pi file is read as pi: writable, written through", async () => {
    const dir = tempDir();
    const file = copyInto(dir, path.join(CLAUDE, CLAUDE_FILE as string), "session.jsonl");
    const store = newStore(dir);
    const first = await store.importFile(file);
    const id = first.sessionId as string;
    expect(store.getSession(id)).toMatchObject({ sourceFormat: "claude-code", agent: "claude-code" });
    expect(() => store.appendEntry(id, { type: "custom", customType: "x", data: {} })).toThrow(ReadOnlySessionError);

    fs.writeFileSync(file, PI_TEXT);
    const again = await store.importFile(file);
    expect(again).toMatchObject({ status: "reimported", sessionId: id });
    expect(store.getSession(id)).toMatchObject({ sourceFormat: "pi-jsonl", agent: "pi", readOnly: null, entryCount: 2, leafId: "b" });
    expect(store.renderJsonl(id)).toBe(PI_TEXT);
    const added = store.appendEntry(id, { type: "custom", customType: "x", data: {} });
    expect(fs.readFileSync(file, "utf8")).toBe(PI_TEXT + line(added));
    store.close();
  });

  it("a pi file that became a Claude Code file is read-only from then on, and given back byte for byte", async () => {
    const dir = tempDir();
    const file = path.join(dir, "session.jsonl");
    fs.writeFileSync(file, PI_TEXT);
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId as string;
    expect(store.getSession(id)).toMatchObject({ sourceFormat: "pi-jsonl", readOnly: null });

    const claude = fs.readFileSync(path.join(CLAUDE, CLAUDE_FILE as string));
    fs.writeFileSync(file, claude);
    expect(await store.importFile(file)).toMatchObject({ status: "reimported", sessionId: id });
    expect(store.getSession(id)).toMatchObject({ sourceFormat: "claude-code", agent: "claude-code" });
    expect(store.getSession(id)?.readOnly).toMatch(/never writes/);
    expect(Buffer.from(store.renderJsonl(id)).equals(claude)).toBe(true);
    expect(() => store.appendEntry(id, { type: "custom", customType: "x", data: {} })).toThrow(ReadOnlySessionError);
    expect(fs.readFileSync(file).equals(claude)).toBe(true);
    store.close();
  });
});
