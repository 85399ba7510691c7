/**
 * Reading a file piece by piece (live follow) gives exactly what reading it whole gives, whatever
 * the split; held lines come out once the line completing them arrives.
 */
import { describe, expect, it } from "vitest";
import { claudeCodeReader, codexReader, type SessionReader } from "../src/index";
import type { SessionEntry } from "@bonsai/core";
import { REAL_FILES, readReal } from "./support/real-files";

/** Deterministic piece sizes (a small linear congruential sequence). */
function* pieceSizes(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2147483648;
    yield 1 + (x % 40_000);
  }
}

function readInPieces(reader: SessionReader, text: string, seed: number): { entries: SessionEntry[]; order: string[] } {
  const incremental = reader.incremental();
  const given = new Map<string, SessionEntry>();
  const order: string[] = [];
  const take = (chunk: { entries: SessionEntry[]; updated: SessionEntry[] }): void => {
    for (const e of chunk.entries) {
      expect(given.has(e.id)).toBe(false);
      given.set(e.id, JSON.parse(JSON.stringify(e)) as SessionEntry);
      order.push(e.id);
    }
    for (const e of chunk.updated) {
      expect(given.has(e.id)).toBe(true);
      given.set(e.id, JSON.parse(JSON.stringify(e)) as SessionEntry);
    }
  };
  const sizes = pieceSizes(seed);
  for (let pos = 0; pos < text.length; ) {
    const size = sizes.next().value as number;
    take(incremental.push(text.slice(pos, pos + size)));
    pos += size;
  }
  take(incremental.end());
  return { entries: order.map((id) => given.get(id) as SessionEntry), order };
}

const CASES = [
  ...REAL_FILES["claude-code"].map((name) => ({ agent: "claude-code", name, reader: claudeCodeReader })),
  ...REAL_FILES.codex.map((name) => ({ agent: "codex", name, reader: codexReader })),
];

describe.skipIf(CASES.length === 0)("incremental reading of the real files", () => {
  for (const { agent, name, reader } of CASES) {
    it(`${agent}/${name.slice(0, 48)}: pieces give what the whole file gives`, () => {
      const text = readReal(agent, name);
      const whole = JSON.parse(JSON.stringify(reader.read(text).entries)) as SessionEntry[];
      for (const seed of [1, 7]) {
        const { entries, order } = readInPieces(reader, text, seed);
        expect(order).toEqual(whole.map((e) => e.id));
        expect(entries).toEqual(whole);
      }
    });
  }
});

describe("held lines", () => {
  it("a Codex reply is given with its token count, not before", () => {
    const lines = [
      { timestamp: "2026-01-01T00:00:00.000Z", type: "session_meta", payload: { id: "t1", cwd: "/w", timestamp: "2026-01-01T00:00:00.000Z" } },
      { timestamp: "2026-01-01T00:00:01.000Z", type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] } },
      { timestamp: "2026-01-01T00:00:02.000Z", type: "response_item", payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: "hello" }] } },
      { timestamp: "2026-01-01T00:00:03.000Z", type: "event_msg", payload: { type: "token_count", info: { last_token_usage: { input_tokens: 10, cached_input_tokens: 4, output_tokens: 2, total_tokens: 12 } } } },
    ].map((l) => `${JSON.stringify(l)}\n`);
    const incremental = codexReader.incremental();
    expect(incremental.push(lines[0] as string).entries.map((e) => e.id)).toEqual(["line-1"]);
    expect(incremental.push(lines[1] as string).entries.map((e) => e.id)).toEqual(["line-2"]);
    expect(incremental.push(lines[2] as string).entries).toEqual([]);
    // a follower may show the held reply meanwhile: as it is now, under the id it will come out with
    expect(incremental.held().map((e) => [e.id, (e as { message: { usage?: unknown } }).message.usage])).toEqual([["line-3", undefined]]);
    expect(incremental.state()).toMatchObject({ format: "codex", leafId: "line-3", header: { id: "t1", cwd: "/w" }, stats: { lines: 3 } });
    expect(incremental.state()).not.toHaveProperty("entries");
    const chunk = incremental.push(lines[3] as string);
    expect(incremental.held()).toEqual([]);
    expect(chunk.entries.map((e) => e.id)).toEqual(["line-3", "line-4"]);
    expect(chunk.entries[0]).toMatchObject({ message: { role: "assistant", usage: { input: 6, cacheRead: 4, output: 2, totalTokens: 12 } } });
  });
});
