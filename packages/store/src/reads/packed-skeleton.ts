/**
 * A session's tree skeleton read straight into its wire form (core's skeleton-wire.ts), what
 * openSession sends: the narrow columns come from SQLite as one JSON array per column (no row
 * objects, no node objects), and the previews of the heads only, by seq. Equal, once unpacked, to
 * packSkeleton(getSkeleton(...), { previews: "heads" }) (test/packed-skeleton.test.ts).
 */
import { packedColumnsWriter, packedPreviewHeads, withHeadPreviews, type PackedSkeleton } from "@bonsai/core";
import { FLAG_FROM_EXTENSION, FLAG_OFFLINE, FLAG_PRUNED, FLAG_THINKING } from "../derive";
import type { Statements } from "./path";

/** the columns read, each as one JSON array (file order) */
const COLUMNS = ["seq", "tokens", "flags", "tokens_before", "id", "parent_id", "type", "role", "timestamp", "tool_name", "custom_type", "stop_reason", "ref_id"] as const;
const SELECT_COLUMNS = `SELECT ${COLUMNS.map((c) => `json_group_array(${c})`).join(", ")} FROM (SELECT ${COLUMNS.join(", ")} FROM entries WHERE session_id = ? ORDER BY seq)`;

/**
 * `unordered`: what to answer when SQLite did not aggregate the rows in the subquery's seq order
 * (it does, but its documentation leaves the order of an aggregate open): the node skeleton packed.
 */
export function readPackedSkeleton(sql: Statements, sessionId: string, leafId: string | null, unordered: () => PackedSkeleton): PackedSkeleton {
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
