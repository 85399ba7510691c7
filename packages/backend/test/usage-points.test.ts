/**
 * The replies' usage for the tree's figures (getUsagePoints): after a change of the tree the page asks
 * only for the nodes after those it holds, and the backend reads only those replies' entries; what
 * the page joins equals the whole tree's answer. A caller whose nodes no longer match gets the whole.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { SqliteSessionStore } from "@bonsai/store";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { callParsed, useBackend } from "./support";

/** assistant replies (every other one with a usage) and user messages after `parentId`, as JSONL lines */
function appendedLines(parentId: string, count: number, tag: string): { lines: string; withUsage: string[] } {
  const out: string[] = [];
  const withUsage: string[] = [];
  let parent = parentId;
  for (let i = 0; i < count; i++) {
    const id = `${tag}${String(i).padStart(4, "0")}`;
    const timestamp = new Date(Date.UTC(2026, 11, 7, 12, 0, i)).toISOString();
    const assistant = i % 2 === 0;
    const usage = i % 4 === 0 ? { input: 1000 + i, output: 50, cacheRead: 7, cacheWrite: 0, totalTokens: 0 } : undefined;
    const message = assistant
      ? { role: "assistant", content: [{ type: "text", text: `reply ${i}` }], provider: "p", model: "m", ...(usage ? { usage } : {}), stopReason: "stop", timestamp: Date.parse(timestamp) }
      : { role: "user", content: `question ${i}`, timestamp: Date.parse(timestamp) };
    if (usage) withUsage.push(id);
    out.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp, message }));
    parent = id;
  }
  return { lines: `${out.join("\n")}\n`, withUsage };
}

describe("getUsagePoints after the nodes the page holds", () => {
  const backend = useBackend();

  it("reads only the later replies, and joined with what was held equals the whole tree's answer", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-usage-"));
    try {
      const file = path.join(dir, "s.jsonl");
      const session = generateSession({ entries: 600, seed: 23, compactionInterval: 200, branchProbability: 0.1 });
      fs.writeFileSync(file, sessionToJsonl(session));
      const store = backend().store as SqliteSessionStore;
      const sessionId = (await store.importFile(file)).sessionId as string;
      const whole = await callParsed(backend(), "getUsagePoints", { sessionId });
      expect(whole.from).toBe(0);
      expect(whole.entryIds.length).toBeGreaterThan(10);
      expect(whole.nodes).toBe(store.getSkeleton(sessionId).nodes.length);

      // the replies' entries the backend reads from here on
      const asked: string[] = [];
      const getEntries = store.getEntries.bind(store);
      store.getEntries = (id: string, entryIds: readonly string[]) => {
        asked.push(...entryIds);
        return getEntries(id, entryIds);
      };

      const leaf = store.getLeaf(sessionId) as string;
      const { lines, withUsage } = appendedLines(leaf, 12, "zz");
      fs.appendFileSync(file, lines);
      await store.importFile(file);
      const part = await callParsed(backend(), "getUsagePoints", { sessionId, after: { nodes: whole.nodes, lastId: whole.lastId } });
      expect(part.from).toBe(whole.nodes);
      expect(part.nodes).toBe(whole.nodes + 12);
      expect(part.entryIds).toEqual(withUsage);
      // the 6 new replies only, not the session's hundreds
      expect(asked.length).toBe(6);

      const again = await callParsed(backend(), "getUsagePoints", { sessionId });
      expect({ entryIds: [...whole.entryIds, ...part.entryIds], tokens: [...whole.tokens, ...part.tokens] }).toEqual({ entryIds: again.entryIds, tokens: again.tokens });
      expect(part.tokens).toEqual([1057, 1061, 1065]);

      // nothing new: no reply read
      asked.length = 0;
      const none = await callParsed(backend(), "getUsagePoints", { sessionId, after: { nodes: part.nodes, lastId: part.lastId } });
      expect([none.from, none.entryIds, asked]).toEqual([part.nodes, [], []]);

      // nodes that no longer match what the caller holds (another id there, or more than the tree has): the whole tree
      for (const after of [{ nodes: whole.nodes, lastId: "not-that-one" }, { nodes: part.nodes + 5, lastId: part.lastId as string }]) {
        const full = await callParsed(backend(), "getUsagePoints", { sessionId, after });
        expect(full.from).toBe(0);
        expect({ entryIds: full.entryIds, tokens: full.tokens }).toEqual({ entryIds: again.entryIds, tokens: again.tokens });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
