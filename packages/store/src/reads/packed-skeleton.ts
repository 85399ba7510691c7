/**
 * A session's tree skeleton read straight into its wire form (core's skeleton-wire.ts), what
 * openSession sends: the narrow columns come from SQLite as one JSON array per column (no row
 * objects, no node objects), and the previews of the heads only, by seq. Equal, once unpacked, to
 * packSkeleton(getSkeleton(...), { previews: "heads" }) (test/packed-skeleton.test.ts).
 */
import { DANGLING_PARENT, NO_PARENT, packedColumnsWriter, packedPreviewHeads, withHeadPreviews, type PackedSkeleton, type SparseSkeletonField } from "@bonsai/core";
import { FLAG_FROM_EXTENSION, FLAG_OFFLINE, FLAG_PRUNED, FLAG_THINKING } from "../derive";
import type { Statements } from "./path";
import { byId, firstFirst } from "../id-tiers";

/** the columns read, each as one JSON array (file order) */
const COLUMNS = ["seq", "tokens", "flags", "tokens_before", "id", "parent_id", "type", "role", "timestamp", "tool_name", "custom_type", "stop_reason", "ref_id"] as const;
const SELECT_COLUMNS = `SELECT ${COLUMNS.map((c) => `json_group_array(${c})`).join(", ")} FROM (SELECT ${COLUMNS.join(", ")} FROM entries WHERE session_id = ? ORDER BY seq)`;

/**
 * `unordered`: what to answer when SQLite did not aggregate the rows in the subquery's seq order
 * (it does, but its documentation leaves the order of an aggregate open): the node skeleton packed.
 */
export function readPackedSkeleton(sql: Statements, sessionId: string, leafId: string | null, unordered: () => PackedSkeleton): PackedSkeleton {
  return readRegularPackedSkeleton(sql, sessionId, leafId) ?? readAnyPackedSkeleton(sql, sessionId, leafId, unordered);
}

/** the dense columns of the regular read, each as one JSON array (file order) */
const DENSE = ["seq", "tokens", "flags", "id", "parent_seq", "type", "role", "timestamp"] as const;
/** the optional columns: for each, the seqs that have a value and the values (two JSON arrays) */
const OPTIONAL = ["tokens_before", "tool_name", "custom_type", "stop_reason", "ref_id"] as const;
/** a parent id that names no earlier entry (the entry itself, a later one, or none) */
const UNLINKED = "parent_seq IS NULL AND parent_id IS NOT NULL";
const SELECT_REGULAR = `SELECT ${[
  ...DENSE.map((c) => `json_group_array(${c})`),
  ...OPTIONAL.flatMap((c) => [`json_group_array(seq) FILTER (WHERE ${c} IS NOT NULL)`, `json_group_array(${c}) FILTER (WHERE ${c} IS NOT NULL)`]),
  `json_group_array(seq) FILTER (WHERE ${UNLINKED})`,
  `json_group_array(parent_id) FILTER (WHERE ${UNLINKED})`,
].join(", ")} FROM (SELECT ${[...DENSE, ...OPTIONAL, "parent_id"].join(", ")} FROM entries WHERE session_id = ? ORDER BY seq)`;

/**
 * The read of a regular session (no id written twice, no parent later in the file than its child:
 * `sessions.irregular` = 0) whose seqs are its positions (0, 1, 2, ...): there the stored parent seq
 * is the parent's position, so the parents come as numbers, not ids to look up, and the optional
 * columns as lists of the entries that have them (a 100,000-entry session: 2 MB less JSON text to
 * parse, and no map of 100,000 ids). The few ids to place (the parents that name no earlier entry,
 * labels, compactions' and summaries' targets, the leaf) are index seeks. Null when the session is
 * not such a session (readAnyPackedSkeleton reads it); the same skeleton otherwise.
 */
export function readRegularPackedSkeleton(sql: Statements, sessionId: string, leafId: string | null): PackedSkeleton | null {
  if ((sql.get("SELECT irregular FROM sessions WHERE id = ?").pluck().get(sessionId) as number | undefined) !== 0) return null;
  const texts = sql.get(SELECT_REGULAR).raw().get(sessionId) as string[];
  const [seqs, tokens, flags, ids, parentSeqs, types, roles, timestamps] = texts.slice(0, DENSE.length).map((t) => JSON.parse(t) as unknown) as [
    number[],
    number[],
    number[],
    string[],
    (number | null)[],
    string[],
    (string | null)[],
    string[],
  ];
  const n = ids.length;
  for (let i = 0; i < n; i++) if (seqs[i] !== i) return null;
  type Optional = [number[], Array<string | number>];
  const optional = (k: number): Optional => [JSON.parse(texts[DENSE.length + 2 * k]!) as number[], JSON.parse(texts[DENSE.length + 2 * k + 1]!) as Array<string | number>];
  const [tokensBefore, toolNames, customTypes, stopReasons, refIds] = OPTIONAL.map((_, k) => optional(k)) as [Optional, Optional, Optional, Optional, Optional];
  const [unlinkedSeqs, unlinkedParents] = [JSON.parse(texts.at(-2)!) as number[], JSON.parse(texts.at(-1)!) as string[]];
  // the lists come in the rows' order as the dense columns do (checked above); anything else is read the other way
  const ascending = (list: readonly number[]) => list.every((v, k) => k === 0 || v > list[k - 1]!);
  if (![tokensBefore, toolNames, customTypes, stopReasons, refIds].every(([at]) => ascending(at)) || !ascending(unlinkedSeqs)) return null;

  // the first position of an id: its seq (no id is written twice here)
  const placed = new Map<string, number | undefined>();
  const positionOf = (id: string): number | undefined => {
    if (!placed.has(id)) placed.set(id, (sql.get(`SELECT seq FROM entries WHERE ${byId()} ORDER BY ${firstFirst()} LIMIT 1`).pluck().get(sessionId, id) as number | null) ?? undefined);
    return placed.get(id);
  };
  const writer = packedColumnsWriter(sessionId, leafId, n, positionOf);
  const row = { id: "", type: "", role: null as string | null, timestamp: "", tokens: 0 };
  let u = 0;
  for (let i = 0; i < n; i++) {
    row.id = ids[i]!;
    row.type = types[i]!;
    row.role = roles[i]!;
    row.timestamp = timestamps[i]!;
    row.tokens = tokens[i]!;
    const parentSeq = parentSeqs[i]!;
    if (parentSeq !== null) writer.rowAt(i, row, parentSeq, null);
    else if (unlinkedSeqs[u] === i) {
      // its own id, one later in the file (appended after it), or none of this session's
      const parentId = unlinkedParents[u++]!;
      const at = parentId === row.id ? i : positionOf(parentId);
      writer.rowAt(i, row, at ?? DANGLING_PARENT, parentId);
    } else writer.rowAt(i, row, NO_PARENT, null);
  }

  // the optional fields, each in ascending positions
  const labels = (sql.get("SELECT target_id, label FROM labels WHERE session_id = ? AND label IS NOT NULL").raw().all(sessionId) as [string, string][])
    .flatMap(([target, label]) => {
      const at = positionOf(target);
      return at === undefined ? [] : [[at, label] as const];
    })
    .sort((a, b) => a[0] - b[0]);
  for (const [at, label] of labels) writer.sparse("label", at, label);
  const list = (field: SparseSkeletonField, [at, values]: Optional) => {
    for (let k = 0; k < at.length; k++) writer.sparse(field, at[k]!, values[k]!);
  };
  list("toolName", toolNames);
  list("stopReason", stopReasons);
  list("customType", customTypes);
  list("tokensBefore", tokensBefore);
  for (let k = 0; k < refIds[0].length; k++) {
    const at = refIds[0][k]!;
    writer.sparse(types[at] === "compaction" ? "firstKeptEntryId" : "fromId", at, refIds[1][k]!);
  }
  for (const [field, bit] of [["pruned", FLAG_PRUNED], ["fromExtension", FLAG_FROM_EXTENSION], ["offline", FLAG_OFFLINE], ["thinking", FLAG_THINKING]] as const) {
    for (let i = 0; i < n; i++) if (flags[i]! & bit) writer.sparse(field, i, true);
  }
  const heads = packedPreviewHeads(writer.columns, positionOf);
  return withHeadPreviews(writer.columns, heads, (at) => previewsAt(sql, sessionId, at));
}

/** The read of any session: the parents as ids, placed by a map of every id's first position. */
function readAnyPackedSkeleton(sql: Statements, sessionId: string, leafId: string | null, unordered: () => PackedSkeleton): PackedSkeleton {
  // one text per column (about half the time of reading 100,000 rows of 13 values, and no row arrays)
  const texts = sql.get(SELECT_COLUMNS).raw().get(sessionId) as string[];
  const [seqs, tokens, flags, tokensBefore, ids, parentIds, types, roles, timestamps, toolNames, customTypes, stopReasons, refIds] = texts.map((t) => JSON.parse(t) as unknown) as [
    number[],
    number[],
    number[],
    (number | null)[],
    string[],
    (string | null)[],
    string[],
    (string | null)[],
    string[],
    (string | null)[],
    (string | null)[],
    (string | null)[],
    (string | null)[],
  ];
  const n = ids.length;
  for (let i = 1; i < n; i++) if (seqs[i]! <= seqs[i - 1]!) return unordered();
  // the first position of each id (an id written twice: both are kept, parents name the first)
  const position = new Map<string, number>();
  for (let i = 0; i < n; i++) if (!position.has(ids[i]!)) position.set(ids[i]!, i);
  const positionOf = (id: string) => position.get(id);
  const labels = new Map(sql.get("SELECT target_id, label FROM labels WHERE session_id = ? AND label IS NOT NULL").raw().all(sessionId) as [string, string][]);

  const writer = packedColumnsWriter(sessionId, leafId, n, positionOf);
  const row = { id: "", parentId: null as string | null, type: "", role: null as string | null, timestamp: "", tokens: 0 };
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    const type = types[i]!;
    row.id = id;
    row.parentId = parentIds[i]!;
    row.type = type;
    row.role = roles[i]!;
    row.timestamp = timestamps[i]!;
    row.tokens = tokens[i]!;
    writer.row(i, row);
    // the sparse fields, as getSkeleton sets them on a node
    if (labels.size > 0) {
      const label = labels.get(id);
      if (label !== undefined) writer.sparse("label", i, label);
    }
    const f = flags[i]!;
    if (toolNames[i] !== null) writer.sparse("toolName", i, toolNames[i]!);
    if (f & FLAG_PRUNED) writer.sparse("pruned", i, true);
    if (stopReasons[i] !== null) writer.sparse("stopReason", i, stopReasons[i]!);
    if (customTypes[i] !== null) writer.sparse("customType", i, customTypes[i]!);
    const ref = refIds[i]!;
    if (ref !== null) writer.sparse(type === "compaction" ? "firstKeptEntryId" : "fromId", i, ref);
    if (f & FLAG_FROM_EXTENSION) writer.sparse("fromExtension", i, true);
    if (f & FLAG_OFFLINE) writer.sparse("offline", i, true);
    if (tokensBefore[i] !== null) writer.sparse("tokensBefore", i, tokensBefore[i]!);
    if (f & FLAG_THINKING) writer.sparse("thinking", i, true);
  }
  const heads = packedPreviewHeads(writer.columns, positionOf);
  return withHeadPreviews(writer.columns, heads, (at) => previewsAt(sql, sessionId, at.map((i) => seqs[i]!)));
}

/** the previews of the rows at `seqs` (ascending), in that order */
function previewsAt(sql: Statements, sessionId: string, seqs: readonly number[]): string[] {
  if (seqs.length === 0) return [];
  return sql
    .get("SELECT e.preview FROM json_each(?) AS w CROSS JOIN entries e ON e.session_id = ? AND e.seq = w.value ORDER BY w.key")
    .pluck()
    .all(JSON.stringify(seqs), sessionId) as string[];
}
