/**
 * The store API's conformance suite: the behaviours every `SessionStore` implementation keeps,
 * written once against the interface (no SQL, no rows), grouped by capability. An implementation
 * runs it from a test file of its own:
 *
 *   describeSessionStoreConformance("sqlite", () => ({ store, dir, cleanup }), { capabilities });
 *
 * Every call is awaited, so a store whose methods answer through promises (one over a database
 * server) runs it as the SQLite store does. A capability declared false whose operations would
 * change the store or read host files (import, write, prune, follow) is checked to refuse them with
 * the read-only BonsaiError.
 *
 * See packages/store/README.md ("Conformance suite").
 */
import { describe } from "vitest";
import { DEFAULT_FIXTURES_DIR, missingFixtures, realFixtures, type ConformanceOptions, type StoreCapabilities, type StoreFactory } from "./harness";
import { describeImport, describeStoredReads } from "./import-and-read";
import { describeEvents, describeFollow, describeSearch } from "./search-and-events";
import { describePlans } from "./plans";
import { describeRefusals } from "./refusals";
import { describePrune, describeWrites, describeWriteThrough } from "./writes";

export type { ConformanceOptions, ConformanceStore, StoreCapabilities, StoreFactory, StoreUnderTest } from "./harness";

/** Every capability: what the SQLite store supports. */
export const ALL_CAPABILITIES: StoreCapabilities = { import: true, read: true, write: true, writeThrough: true, prune: true, search: true, follow: true, events: true };

export function describeSessionStoreConformance(
  name: string,
  factory: StoreFactory,
  options: ConformanceOptions & { capabilities?: Partial<StoreCapabilities> } = {},
): void {
  const can = { ...ALL_CAPABILITIES, ...options.capabilities };
  const fx = realFixtures(options.fixturesDir ?? DEFAULT_FIXTURES_DIR);
  const missing = missingFixtures(fx);
  if (missing) console.warn(missing);
  const unless = (capability: boolean, why: string) => (capability ? missing : why);
  describe(`SessionStore conformance: ${name}`, () => {
    describeImport(factory, fx, unless(can.import, "no import"));
    describeStoredReads(factory, fx, unless(can.read, "no reads"));
    describePlans(factory, fx, unless(can.read, "no reads"));
    describeWrites(factory, fx, unless(can.write, "no writes"));
    describeWriteThrough(factory, fx, unless(can.writeThrough && can.write, "no write-through"));
    describePrune(factory, fx, unless(can.prune, "no pruning"));
    if (can.search) describeSearch(factory);
    describeEvents(factory, fx, unless(can.events, "no events"), can);
    describeFollow(factory, fx, unless(can.follow && can.events, "no follow"));
    describeRefusals(factory, fx, can, missing);
  });
}
