/**
 * The what-if replay against the engine itself: the same generated conversation is run twice
 * through the real engine (real SQLite store, the loopback model server answering with usage
 * computed from each request): once with automatic compaction off, once with the settings under
 * test. Replaying the first run's session under those settings must predict the compactions the
 * engine triggered in the second, on the same turns, and the prunings before them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, mergeSettings, SUMMARY_RATIO, whatIf, whatIfSettingsOf, type SessionEntry, type SettingsPatch } from "@bonsai/core";
import { useMockOpenAiServer, type ChatReply, type ChatRequestBody } from "@bonsai/testkit";
import { harness, modelSettings } from "./harness";
import { N } from "./support";

const mock = useMockOpenAiServer({ beforeAll, afterAll, beforeEach });

/** mulberry32 */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Turn {
  prompt: string;
  reply: number;
  /** tool outputs appended (as an agent's tool round) before the prompt */
  tools: number[];
}

function conversation(seed: number, turns: number, withTools: boolean): Turn[] {
  const next = random(seed);
  const size = (min: number, max: number) => min + Math.floor(next() * (max - min));
  return Array.from({ length: turns }, (_, k) => ({
    prompt: `turn ${k}: ${"p".repeat(size(2000, 24000))}`,
    reply: size(400, 8000),
    tools: withTools && k > 0 ? Array.from({ length: size(0, 3) }, () => size(4000, 30000)) : [],
  }));
}

const charsOf = (content: unknown): number =>
  typeof content === "string" ? content.length : Array.isArray(content) ? content.reduce((n: number, b: { text?: unknown }) => n + (typeof b.text === "string" ? b.text.length : 0), 0) : 0;

function section(text: string, tag: string): string {
  const start = text.indexOf(`<${tag}>\n`);
  const end = text.indexOf(`\n</${tag}>`);
  return start >= 0 && end > start ? text.slice(start + tag.length + 3, end) : "";
}

/** Turns answer with `reply` characters and the usage of the request; summaries are SUMMARY_RATIO of what they read. */
function answers(turns: readonly Turn[]) {
  return (body: ChatRequestBody): ChatReply => {
    if (body.stream) {
      const last = [...body.messages].reverse().find((m) => m.role === "user");
      const turn = turns.find((t) => charsOf(last?.content) === t.prompt.length);
      const text = "r".repeat(turn?.reply ?? 100);
      const prompt = Math.ceil(body.messages.reduce((n, m) => n + charsOf(m.content), 0) / 4);
      return { kind: "text", text, usage: { prompt_tokens: prompt, completion_tokens: Math.ceil(text.length / 4) } };
    }
    const text = String(body.messages.find((m) => m.role === "user")?.content ?? "");
    const read = section(text, "conversation").length + section(text, "previous-summary").length;
    return { kind: "text", text: "s".repeat(Math.max(1, Math.ceil(SUMMARY_RATIO * read))) };
  };
}

async function record(turns: readonly Turn[], settings: SettingsPatch): Promise<SessionEntry[]> {
  const server = mock();
  server.setChatFallback(answers(turns));
  const h = await harness({ settings: modelSettings(server, settings) });
  try {
    for (const turn of turns) {
      // an agent's tool round (the engine has no tools): appended before the prompt
      for (const size of turn.tools) h.add(N.AT(["bash", { command: `run ${size}` }]), N.T(size, "bash"));
      await h.engine.prompt(h.sessionId, turn.prompt);
    }
    return h.store.getPath(h.sessionId);
  } finally {
    await h.close();
  }
}

/** the number of user prompts before an entry of the path: which turn it belongs to */
function turnOf(path: readonly SessionEntry[], entryId: string): number {
  let turns = 0;
  for (const e of path) {
    if (e.id === entryId) return turns;
    if (e.type === "message" && e.message.role === "user") turns++;
  }
  throw new Error(`no entry ${entryId}`);
}

const CASES: { name: string; seed: number; tools: boolean; split?: boolean; settings: SettingsPatch }[] = [
  { name: "default keep budget", seed: 1, tools: false, settings: { compaction: { autoContinue: false, reserveTokens: 8000, keepRecentTokens: 6000 }, model: { contextWindow: 50000 } } },
  { name: "small keep budget, split turns", seed: 2, tools: false, split: true, settings: { compaction: { autoContinue: false, reserveTokens: 12000, keepRecentTokens: 300 }, model: { contextWindow: 60000 } } },
  { name: "percent threshold", seed: 3, tools: false, settings: { compaction: { autoContinue: false, thresholdPercent: 70, keepRecentTokens: 8000 }, model: { contextWindow: 50000 } } },
  {
    name: "tool output pruned before the checks",
    seed: 4,
    tools: true,
    settings: { compaction: { autoContinue: false, reserveTokens: 10000, keepRecentTokens: 5000 }, pruning: { protectTokens: 6000, minimumSavings: 3000 }, model: { contextWindow: 70000 } },
  },
];

describe("the replay predicts the engine's threshold compactions", () => {
  for (const c of CASES) {
    it(`${c.name} (seed ${c.seed})`, async () => {
      const turns = conversation(c.seed, 28, c.tools);
      const off = await record(turns, { ...c.settings, compaction: { ...c.settings.compaction, enabled: false } });
      const on = await record(turns, c.settings);
      expect(off.some((e) => e.type === "compaction")).toBe(false);

      const engineCompactions = on.filter((e) => e.type === "compaction");
      expect(engineCompactions.length).toBeGreaterThanOrEqual(2);
      const settings = whatIfSettingsOf(mergeSettings(DEFAULT_SETTINGS, c.settings));
      const replay = whatIf(off, settings);

      // on the same turns
      expect(replay.candidate.compactions.map((x) => turnOf(off, x.atEntryId))).toEqual(engineCompactions.map((e) => turnOf(on, e.id)));
      // keeping from the same turn, split or not alike
      const onById = new Map(on.map((e) => [e.id, e]));
      expect(replay.candidate.compactions.map((x) => [turnOf(off, x.firstKeptEntryId), x.isSplitTurn])).toEqual(
        engineCompactions.map((e) => {
          const kept = onById.get((e as { firstKeptEntryId: string }).firstKeptEntryId) as SessionEntry;
          const isUser = kept.type === "message" && kept.message.role === "user";
          return [turnOf(on, kept.id), !isUser];
        }),
      );
      if (c.split) expect(replay.candidate.compactions.some((x) => x.isSplitTurn)).toBe(true);
      // with the context size the engine saw (within 1 %)
      replay.candidate.compactions.forEach((x, i) => {
        const before = (engineCompactions[i] as { tokensBefore: number }).tokensBefore;
        expect(Math.abs(x.tokensBefore - before)).toBeLessThanOrEqual(before * 0.01);
      });
      if (c.tools) {
        const prunedOn = on.filter((e) => e.type === "message" && e.message.role === "toolResult" && e.message.prunedAt !== undefined);
        expect(prunedOn.length).toBeGreaterThan(0);
        expect(replay.candidate.prunedTokens).toBeGreaterThan(0);
      }
      // the same settings with compaction off: nothing, and the file's own peak
      const none = whatIf(off, { ...settings, compactionEnabled: false });
      expect(none.candidate.compactions).toEqual([]);
      expect(none.candidate.peakContextTokens).toBe(none.actual.peakContextTokens);
    });
  }
});
