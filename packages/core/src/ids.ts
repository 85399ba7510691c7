/**
 * Identifiers (spec: session-format.md §6.1, §6.2).
 *
 * Entry ids follow omp: the last 8 hex digits of a random UUID v4, regenerated while they collide
 * with an id already in the session (up to 100 attempts), then a 16-hex snowflake. Session ids are
 * omp snowflakes. The random source and the clock are injectable so tests are deterministic.
 */

export interface RandomSource {
  /** a UUID v4 string (36 chars, lowercase hex) */
  randomUUID(): string;
  /** wall clock in ms (Date.now by default) */
  now(): number;
}

interface CryptoLike {
  randomUUID?: () => string;
}

function platformUUID(): string {
  const crypto = (globalThis as { crypto?: CryptoLike }).crypto;
  if (!crypto?.randomUUID) throw new Error("globalThis.crypto.randomUUID is not available in this runtime");
  return crypto.randomUUID();
}

export const defaultRandomSource: RandomSource = { randomUUID: platformUUID, now: () => Date.now() };

/** 2015-01-01T00:00:00Z, the omp snowflake epoch */
export const SNOWFLAKE_EPOCH_MS = 1420070400000;
const SEQUENCE_MASK = 0x3fffff;
export const MAX_ID_ATTEMPTS = 100;

/** Generates omp snowflakes: ((now - epoch) << 22) | seq, as 16 lowercase hex digits. */
export class SnowflakeGenerator {
  private seq: number;

  constructor(private readonly source: RandomSource = defaultRandomSource) {
    // the sequence starts at a random 22-bit value (taken from the first 6 hex digits of a UUID)
    this.seq = Number.parseInt(source.randomUUID().replace(/-/g, "").slice(0, 6), 16) & SEQUENCE_MASK;
  }

  next(): string {
    this.seq = (this.seq + 1) & SEQUENCE_MASK;
    const elapsed = BigInt(Math.max(0, Math.floor(this.source.now() - SNOWFLAKE_EPOCH_MS)));
    const value = ((elapsed << 22n) | BigInt(this.seq)) & 0xffffffffffffffffn;
    return value.toString(16).padStart(16, "0");
  }
}

/** Anything that can tell whether an id is taken (a Set, a Map, the session index). */
export interface IdSet {
  has(id: string): boolean;
}

/** Creates entry ids for one session (omp rule), with a snowflake fallback after 100 collisions. */
export class EntryIdGenerator {
  private snowflakes: SnowflakeGenerator | undefined;

  constructor(private readonly source: RandomSource = defaultRandomSource) {}

  next(taken: IdSet): string {
    for (let attempt = 0; attempt < MAX_ID_ATTEMPTS; attempt++) {
      const id = this.source.randomUUID().slice(-8);
      if (!taken.has(id)) return id;
    }
    this.snowflakes ??= new SnowflakeGenerator(this.source);
    let id = this.snowflakes.next();
    while (taken.has(id)) id = this.snowflakes.next();
    return id;
  }
}

/** One entry id that does not collide with `taken`. */
export function generateEntryId(taken: IdSet, source: RandomSource = defaultRandomSource): string {
  return new EntryIdGenerator(source).next(taken);
}

/** A new omp-style session id (16-hex snowflake). */
export function generateSessionId(source: RandomSource = defaultRandomSource): string {
  return new SnowflakeGenerator(source).next();
}

/**
 * A deterministic RandomSource for tests and benchmarks: UUIDs derived from a seeded
 * xorshift generator (valid v4 layout), and a fixed or advancing clock.
 */
export function seededRandomSource(seed: number, startMs = 1_700_000_000_000): RandomSource {
  let state = seed >>> 0 || 0x9e3779b9;
  let clock = startMs;
  const nextWord = (): number => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  const hex = (n: number, digits: number): string => n.toString(16).padStart(8, "0").slice(-digits);
  return {
    randomUUID(): string {
      const a = hex(nextWord(), 8);
      const b = hex(nextWord(), 8);
      const c = hex(nextWord(), 8);
      const d = hex(nextWord(), 8);
      const variant = ((Number.parseInt(c[0] ?? "0", 16) & 0x3) | 0x8).toString(16);
      return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`;
    },
    now(): number {
      return clock++;
    },
  };
}
