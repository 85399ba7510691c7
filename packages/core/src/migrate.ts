/**
 * Format migrations v1 -> v2 -> v3 (spec: session-format.md §7.2), applied in memory only.
 * The caller decides whether and where to write the result; opening a file never rewrites it.
 */
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "./entries";
import { EntryIdGenerator, defaultRandomSource, type RandomSource } from "./ids";

export interface MigrationResult {
  /** true if any step ran (header and entries were changed in place) */
  migrated: boolean;
  /** the version the file declared (absent = 1) */
  fromVersion: number;
  /** header.version after migration */
  toVersion: number;
}

/** The version a header declares: `version` absent means 1. */
export function sessionVersion(header: SessionHeader): number {
  const v: unknown = header.version ?? 1;
  return typeof v === "number" ? v : Number(v);
}

type Mutable = Record<string, unknown>;

/** Sets header.version, in place, placing the key right after `type` as writers do. */
function setVersionAfterType(header: SessionHeader, version: number): void {
  const { type, version: _old, ...rest } = header as Mutable;
  for (const key of Object.keys(header)) delete (header as Mutable)[key];
  Object.assign(header, { type, version, ...rest });
}

/**
 * v1 -> v2: every entry gets a fresh id and the previous entry as parent (one linear chain);
 * legacy compactions turn `firstKeptEntryIndex` (index into the whole file, header = 0) into
 * `firstKeptEntryId` when it names an entry that already has its new id.
 * Entries are rebuilt so that `type, id, parentId` come first; other keys keep their order.
 */
function migrateV1ToV2(header: SessionHeader, entries: SessionEntry[], source: RandomSource): void {
  setVersionAfterType(header, 2);
  const ids = new EntryIdGenerator(source);
  const taken = new Set<string>();
  let previousId: string | null = null;
  for (let i = 0; i < entries.length; i++) {
    const old = entries[i] as unknown as Mutable;
    const id = ids.next(taken);
    taken.add(id);
    const { type, id: _oldId, parentId: _oldParent, ...rest } = old;
    const entry: Mutable = { type, id, parentId: previousId, ...rest };
    if (type === "compaction" && typeof entry.firstKeptEntryIndex === "number") {
      const fileIndex = entry.firstKeptEntryIndex;
      delete entry.firstKeptEntryIndex;
      // file index k (k >= 1) is entry k - 1; only entries up to this one have their new id yet
      const entryIndex = fileIndex - 1;
      if (Number.isInteger(entryIndex) && entryIndex >= 0 && entryIndex < i) {
        entry.firstKeptEntryId = (entries[entryIndex] as SessionEntry).id;
      } else if (entryIndex === i) {
        entry.firstKeptEntryId = id;
      }
    }
    entries[i] = entry as SessionEntry;
    previousId = id;
  }
}

/** v2 -> v3: the legacy message role `hookMessage` is renamed `custom`. */
function migrateV2ToV3(header: SessionHeader, entries: SessionEntry[]): void {
  header.version = 3;
  for (const entry of entries) {
    if (entry.type !== "message") continue;
    const message = (entry as { message?: unknown }).message;
    if (typeof message === "object" && message !== null && (message as Mutable).role === "hookMessage") {
      (message as Mutable).role = "custom";
    }
  }
}

/**
 * Migrates a parsed session to the current version, in place. Versions >= 3 (including a v3 file
 * that still holds `hookMessage`, and versions newer than 3) are left exactly as they are.
 */
export function migrateSession(
  header: SessionHeader,
  entries: SessionEntry[],
  source: RandomSource = defaultRandomSource,
): MigrationResult {
  const fromVersion = sessionVersion(header);
  let migrated = false;
  if (fromVersion < 2) {
    migrateV1ToV2(header, entries, source);
    migrated = true;
  }
  if (fromVersion < CURRENT_SESSION_VERSION) {
    migrateV2ToV3(header, entries);
    migrated = true;
  }
  return { migrated, fromVersion, toVersion: sessionVersion(header) };
}
