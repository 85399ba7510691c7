/**
 * "Continue in pi": the pi export of every real session, opened by pi's own SessionManager
 * (@mariozechner/pi-coding-agent), whose context builds and converts for a model without error.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SessionManager, convertToLlm } from "@mariozechner/pi-coding-agent";
import { buildIndex, getPath, type MessageEntry, type SessionEntry } from "@bonsai/core";
import { afterAll, describe, expect, it } from "vitest";
import { readSession, toPiSession } from "../src/index";
import { ALL_REAL_FILES, HAVE_REAL, readReal } from "./support/real-files";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-pi-export-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface PiMessage {
  role: string;
  content?: unknown;
  toolCallId?: string;
  provider?: string;
  model?: string;
}

describe.skipIf(!HAVE_REAL)("pi exports of the real sessions load in pi", () => {
  for (const { agent, name } of ALL_REAL_FILES) {
    it(`${agent}/${name.slice(0, 50)}`, () => {
      const session = readSession(readReal(agent, name));
      const exported = toPiSession(session, { sessionId: "0197c0de-0000-7000-8000-000000000001", now: "2026-12-01T00:00:00.000Z", parentSession: name });
      const file = path.join(dir, `${agent}-${name}`);
      fs.writeFileSync(file, exported.text);

      const manager = SessionManager.open(file, dir);
      expect(manager.getHeader()).toMatchObject({ type: "session", version: 3, id: "0197c0de-0000-7000-8000-000000000001", cwd: session.header.cwd });
      expect(manager.getEntries()).toHaveLength(exported.entries.length);
      expect(manager.getLeafId()).toBe(exported.entries[exported.entries.length - 1]?.id);
      const context = manager.buildSessionContext();
      const llm = convertToLlm(context.messages as never) as PiMessage[];
      expect(llm.length).toBeGreaterThan(0);

      // every tool result answers a call of an earlier assistant message, results right after their calls
      const open = new Set<string>();
      for (const m of llm) {
        if (m.role === "assistant") {
          open.clear();
          for (const b of (m.content as { type: string; id?: string }[]) ?? []) if (b.type === "toolCall" && b.id) open.add(b.id);
        } else if (m.role === "toolResult") expect(open.has(m.toolCallId as string), m.toolCallId).toBe(true);
        else open.clear();
      }

      // the compactions of the path are pi compactions with the agent's own summaries
      const index = buildIndex(session.entries);
      const sourcePath = getPath(index, session.leafId);
      const sourceCompactions = sourcePath.filter((e) => e.type === "compaction") as (SessionEntry & { summary: string })[];
      const piCompactions = manager.getEntries().filter((e) => e.type === "compaction") as { summary: string; firstKeptEntryId: string }[];
      expect(piCompactions.map((c) => c.summary)).toEqual(sourceCompactions.map((c) => c.summary));
      if (sourceCompactions.length > 0) expect((context.messages[0] as PiMessage).role).toBe("compactionSummary");

      // model and thinking level carried over
      const lastAssistant = [...sourcePath].reverse().find((e) => e.type === "message" && (e as MessageEntry).message.role === "assistant" && ((e as MessageEntry).message as { model: string }).model !== "<synthetic>");
      if (lastAssistant) {
        const m = (lastAssistant as MessageEntry).message as { provider: string; model: string };
        expect(context.model).toEqual({ provider: m.provider, modelId: m.model });
      }
      const levels = sourcePath.flatMap((e) => (typeof (e as { thinkingLevel?: unknown }).thinkingLevel === "string" ? [(e as { thinkingLevel: string }).thinkingLevel] : []));
      expect(context.thinkingLevel).toBe(levels.length > 0 ? levels[levels.length - 1] : "off");
    });
  }
});
