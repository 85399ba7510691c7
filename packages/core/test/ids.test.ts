import { describe, expect, it } from "vitest";
import {
  EntryIdGenerator,
  MAX_ID_ATTEMPTS,
  SNOWFLAKE_EPOCH_MS,
  SnowflakeGenerator,
  generateEntryId,
  generateSessionId,
  seededRandomSource,
  type RandomSource,
} from "../src/index";

/** A source that returns the given UUIDs in order, then repeats the last one. */
function scripted(uuids: string[], now = SNOWFLAKE_EPOCH_MS + 1000): RandomSource & { calls: number } {
  const source = {
    calls: 0,
    randomUUID(): string {
      const u = uuids[Math.min(source.calls, uuids.length - 1)] as string;
      source.calls++;
      return u;
    },
    now: () => now,
  };
  return source;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("ids", () => {
  it("entry ids are the last 8 hex digits of a UUID v4 (platform crypto by default)", () => {
    const id = generateEntryId(new Set());
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(generateEntryId(new Set(), scripted(["01234567-89ab-4cde-8f01-23456789abcd"]))).toBe("6789abcd");
  });

  it("a colliding id is regenerated", () => {
    const source = scripted(["00000000-0000-4000-8000-0000aaaaaaaa", "00000000-0000-4000-8000-0000bbbbbbbb"]);
    expect(generateEntryId(new Set(["aaaaaaaa"]), source)).toBe("bbbbbbbb");
    expect(source.calls).toBe(2);
  });

  it(`after ${MAX_ID_ATTEMPTS} collisions the id is a 16-hex snowflake`, () => {
    const source = scripted(["00000000-0000-4000-8000-0000aaaaaaaa"], SNOWFLAKE_EPOCH_MS + 5);
    const id = new EntryIdGenerator(source).next(new Set(["aaaaaaaa"]));
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(BigInt(`0x${id}`) >> 22n).toBe(5n);
    expect(source.calls).toBe(MAX_ID_ATTEMPTS + 1); // 100 attempts + the snowflake's random sequence start
  });

  it("snowflakes: time in the high bits, a 22-bit sequence that increments and wraps", () => {
    const source = scripted(["3ffffe00-0000-4000-8000-000000000000"], SNOWFLAKE_EPOCH_MS + 1234);
    const gen = new SnowflakeGenerator(source);
    const a = BigInt(`0x${gen.next()}`);
    const b = BigInt(`0x${gen.next()}`);
    expect(a >> 22n).toBe(1234n);
    expect(a & 0x3fffffn).toBe(0x3fffffn);
    expect(b & 0x3fffffn).toBe(0n); // wrapped
    expect(generateSessionId()).toMatch(/^[0-9a-f]{16}$/);
    const now = BigInt(Date.now() - SNOWFLAKE_EPOCH_MS);
    expect(BigInt(`0x${generateSessionId()}`) >> 22n <= now + 1n).toBe(true);
  });

  it("seeded sources are deterministic and produce valid v4 UUIDs", () => {
    const a = seededRandomSource(42);
    const b = seededRandomSource(42);
    const uuids = Array.from({ length: 200 }, () => a.randomUUID());
    expect(uuids).toEqual(Array.from({ length: 200 }, () => b.randomUUID()));
    for (const u of uuids) expect(u).toMatch(UUID_V4);
    expect(new Set(uuids).size).toBe(200);
    expect(seededRandomSource(43).randomUUID()).not.toBe(uuids[0]);
  });
});
