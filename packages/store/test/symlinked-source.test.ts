/**
 * A symlinked session file is written through to its target (issue 31, 5): a rewrite (pruning,
 * restore) replaces the target, the link stays a link, and the agent appending through the link
 * keeps reaching the file Bonsai reads.
 */
import fs from "node:fs";
import path from "node:path";
import { applyPruning, DEFAULT_PRUNE_CONFIG, parseSessionText, planPruning } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { HEADER, line, newStore, tempDir, toolResultEntry, userEntry } from "./support";

describe("a symlinked session file", () => {
  it("is rewritten at its target: the link stays a link, the agent's later lines reach the store", async () => {
    const dir = tempDir();
    const real = path.join(dir, "elsewhere", "real.jsonl");
    fs.mkdirSync(path.dirname(real));
    let text = line(HEADER);
    for (let i = 0; i < 4; i++) text += line(userEntry(`u${i}`, i ? `t${i - 1}` : null, `step ${i}`, i * 2)) + line(toolResultEntry(`t${i}`, `u${i}`, "bash", "out ".repeat(5000), i * 2 + 1));
    fs.writeFileSync(real, text);
    const link = path.join(dir, "sessions", "s.jsonl");
    fs.mkdirSync(path.dirname(link));
    fs.symlinkSync(real, link);
    const store = newStore(dir);
    const id = (await store.importFile(link)).sessionId as string;
    const entries = store.getPath(id);
    const pruned = store.applyPruning(id, applyPruning(entries, planPruning(entries, { ...DEFAULT_PRUNE_CONFIG, protectTokens: 0, minimumSavings: 0 }), 7));
    expect(pruned).toBeGreaterThan(0);
    expect(fs.lstatSync(link).isSymbolicLink(), "the link stays a link").toBe(true);
    expect(fs.readFileSync(real, "utf8")).not.toBe(text);
    expect(parseSessionText(fs.readFileSync(real, "utf8")).entries).toEqual(store.loadEntries(id));
    expect(fs.readdirSync(path.dirname(real)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // the agent goes on through the link: the store reads it from the same file
    fs.appendFileSync(link, line(userEntry("later", "t3", "the agent goes on", 99)));
    expect((await store.importFile(link)).entriesAdded).toBe(1);
    expect(store.restorePruned(id)).toBe(pruned);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, "utf8")).toBe(text + line(userEntry("later", "t3", "the agent goes on", 99)));
  });
});
