/**
 * The tree skeleton's wire form: columns instead of one object per entry. A session's skeleton
 * is the biggest thing the app sends (10,000 entries: 2.4 MB as objects), and most of that is
 * field names repeated in every node, ISO timestamps and parent ids spelled out again. Packed:
 *   - ids once; parents as positions in `ids`;
 *   - type and role as positions in small dictionaries;
 *   - timestamps as milliseconds after the previous entry's, when that gives back the very same
 *     ISO text (any other text travels verbatim);
 *   - optional fields as [position, value, position, value, ...] lists holding only the entries
 *     that have them.
 *   - previews (two thirds of the rest) optionally for the entries the tree may draw on their own
 *     only (`previewHeads`): the others come back with `previewLater` and an empty preview.
 * unpackSkeleton(packSkeleton(s)) equals s, field for field (absent fields stay absent).
 */
import type { SkeletonNode, TreeSkeleton } from "./skeleton";

export const SKELETON_WIRE_VERSION = 1;

/** the optional fields of a node (each travels as a sparse list) */
export const SPARSE_SKELETON_FIELDS = [
  "label",
  "toolName",
  "pruned",
  "stopReason",
  "customType",
  "firstKeptEntryId",
  "fromId",
  "fromExtension",
  "offline",
  "tokensBefore",
  "thinking",
] as const satisfies ReadonlyArray<keyof SkeletonNode>;

export type SparseSkeletonField = (typeof SPARSE_SKELETON_FIELDS)[number];
type DenseSkeletonField = "id" | "parentId" | "type" | "role" | "timestamp" | "tokens" | "preview";
// every field of SkeletonNode is dense, sparse or told by `previewAt`: adding one without a wire form fails here
type Covered = DenseSkeletonField | SparseSkeletonField | "previewLater";
const covered: Record<Exclude<keyof SkeletonNode, Covered>, never> & Record<Exclude<Covered, keyof SkeletonNode>, never> = {};
void covered;

/** parent position: the entry has no parent */
export const NO_PARENT = -1;
/** parent position: the parent id names no entry of this session (its text is in `danglingParents`) */
export const DANGLING_PARENT = -2;

export interface PackedSkeleton {
  v: typeof SKELETON_WIRE_VERSION;
  sessionId: string;
  leafId: string | null;
  ids: string[];
  /** position of each entry's parent in `ids`, NO_PARENT or DANGLING_PARENT */
  parents: number[];
  /** [position, parentId, ...] for entries whose parent is DANGLING_PARENT */
  danglingParents: Array<number | string>;
  typeNames: string[];
  /** position in typeNames */
  types: number[];
  roleNames: string[];
  /** position in roleNames, -1 for null */
  roles: number[];
  /** ms after the previous entry's timestamp (the first: after the epoch), or the verbatim text */
  times: Array<number | string>;
  tokens: number[];
  /** one per entry, or one per position in `previewAt` when that is present */
  previews: string[];
  /** the ascending positions whose previews `previews` holds; absent: every entry's */
  previewAt?: number[];
  /** per optional field: [position, value, position, value, ...] */
  sparse: Partial<Record<SparseSkeletonField, Array<number | string | boolean>>>;
}

/** ms of an ISO timestamp, when Date gives back exactly that text; else null */
function exactMs(text: string): number | null {
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return null;
  return new Date(ms).toISOString() === text ? ms : null;
}

const DAY_MS = 86_400_000;
/** "YYYY-MM-DDT".length: the day part of Date's ISO text for the years 0000-9999 */
const DAY_PREFIX = 11;
const ISO_LENGTH = 24;

/** the two or three decimal digits at `at` as a number, or NaN when one is not a digit */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let k = at; k < at + count; k++) {
    const d = text.charCodeAt(k) - 48;
    if (d < 0 || d > 9) return NaN;
    value = value * 10 + d;
  }
  return value;
}

/** ms since midnight of "…THH:MM:SS.mmmZ" (Date's form), or NaN when it is not exactly that form */
function timeOfDay(text: string): number {
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 46 || text.charCodeAt(23) !== 90) return NaN;
  const h = digits(text, 11, 2);
  const m = digits(text, 14, 2);
  const s = digits(text, 17, 2);
  if (!(h < 24 && m < 60 && s < 60)) return NaN;
  return ((h * 60 + m) * 60 + s) * 1000 + digits(text, 20, 3);
}

/**
 * The `times` column, one timestamp after the other (file order): ms after the previous exact one,
 * or the verbatim text. The same as `exactMs` for every text, without parsing a date for each: a
 * timestamp on the day of the last exact one (Date's own form, "YYYY-MM-DDTHH:MM:SS.mmmZ") is read
 * from its time of day, which gives back the same text by construction.
 */
export function timeColumnWriter(): (text: string) => number | string {
  let previousMs = 0;
  /** the day part of the last exact timestamp in Date's form, and its midnight */
  let day = "";
  let dayMs = 0;
  return (text) => {
    let ms = NaN;
    if (text.length === ISO_LENGTH && day !== "" && text.startsWith(day)) ms = dayMs + timeOfDay(text);
    if (Number.isNaN(ms)) {
      const exact = exactMs(text);
      if (exact === null) return text;
      ms = exact;
      if (text.length === ISO_LENGTH && text.charCodeAt(DAY_PREFIX - 1) === 84) {
        day = text.slice(0, DAY_PREFIX);
        dayMs = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
      }
    }
    const delta = ms - previousMs;
    previousMs = ms;
    return delta;
  };
}

function dictionary(): { names: string[]; code(name: string): number } {
  const names: string[] = [];
  const index = new Map<string, number>();
  return {
    names,
    code(name) {
      let i = index.get(name);
      if (i === undefined) {
        i = names.length;
        names.push(name);
        index.set(name, i);
      }
      return i;
    },
  };
}

/** every key of PackedSkeleton (a key added to it without this list fails to compile below) */
const PACKED_KEYS = ["v", "sessionId", "leafId", "ids", "parents", "danglingParents", "typeNames", "types", "roleNames", "roles", "times", "tokens", "previews", "previewAt", "sparse"] as const;
const packedKeysCovered: Record<Exclude<keyof PackedSkeleton, (typeof PACKED_KEYS)[number]>, never> = {};
void packedKeysCovered;

/**
 * A packed skeleton that parses its JSON text (as a store worker wrote it) when one of its fields
 * is first read: a backend that only passes the skeleton on to a WebSocket (which sends the text
 * itself, ipc's withJson) never parses 5 MB of it on its thread. Reading, spreading, serializing or
 * structured-cloning it (Electron's IPC) gives the parsed skeleton's fields; an optional field the
 * text lacks reads as undefined.
 */
export function lazyPackedSkeleton(json: string): PackedSkeleton {
  let parsed: PackedSkeleton | undefined;
  const skeleton = {} as PackedSkeleton;
  for (const key of PACKED_KEYS) {
    Object.defineProperty(skeleton, key, { enumerable: true, get: () => (parsed ??= JSON.parse(json) as PackedSkeleton)[key] });
  }
  return skeleton;
}

/** A packed skeleton before its previews are chosen (every column but `previews` and `previewAt`). */
export type PackedColumns = Omit<PackedSkeleton, "previews" | "previewAt">;

/** One node's dense fields (what packSkeleton and the store's packed read both write per row). */
export type PackedRow = Pick<SkeletonNode, "id" | "parentId" | "type" | "role" | "timestamp" | "tokens">;

/**
 * Writes packed columns row by row: dictionaries, parent positions (`positionOf` gives the first
 * position of an id; the ids of every row are known before the first one is written), times.
 * Sparse fields are added with `sparse`, in ascending positions.
 */
export function packedColumnsWriter(sessionId: string, leafId: string | null, n: number, positionOf: (id: string) => number | undefined) {
  const types = dictionary();
  const roles = dictionary();
  const time = timeColumnWriter();
  const columns: PackedColumns = {
    v: SKELETON_WIRE_VERSION,
    sessionId,
    leafId,
    ids: new Array<string>(n),
    parents: new Array<number>(n),
    danglingParents: [],
    typeNames: types.names,
    types: new Array<number>(n),
    roleNames: roles.names,
    roles: new Array<number>(n),
    times: new Array<number | string>(n),
    tokens: new Array<number>(n),
    sparse: {},
  };
  /**
   * A row whose parent's position is known: a position in `ids`, NO_PARENT, or DANGLING_PARENT with
   * the parent's id as `parentId`. Rows are written in ascending positions.
   */
  const rowAt = (i: number, r: Omit<PackedRow, "parentId">, parent: number, parentId: string | null): void => {
    columns.ids[i] = r.id;
    columns.parents[i] = parent;
    if (parent === DANGLING_PARENT) columns.danglingParents.push(i, parentId as string);
    columns.types[i] = types.code(r.type);
    columns.roles[i] = r.role === null ? -1 : roles.code(r.role);
    columns.times[i] = time(r.timestamp);
    columns.tokens[i] = r.tokens;
  };
  return {
    columns,
    row(i: number, r: PackedRow): void {
      const p = r.parentId === null ? NO_PARENT : positionOf(r.parentId);
      rowAt(i, r, p ?? DANGLING_PARENT, r.parentId);
    },
    rowAt,
    sparse(field: SparseSkeletonField, i: number, value: number | string | boolean): void {
      (columns.sparse[field] ??= []).push(i, value);
    },
  };
}

/**
 * The entries whose previews the tree may show without the user expanding anything, as a mask
 * over the positions: entries that are not messages, user messages (a collapsed run shows its
 * first one), the entries the explorer always draws on their own (roots, leaves, branch points,
 * labelled entries, compactions and branch summaries and the entries they point at, the leaf)
 * and the entries right after those (where a collapsed run starts). About one in seven of a
 * generated session's entries, fewer in an agent's (long tool loops); any other preview the
 * explorer needs it asks for (getPreviews). Read from the packed columns (`positionOf`: the first
 * position of an id).
 */
export function packedPreviewHeads(columns: PackedColumns, positionOf: (id: string) => number | undefined): Uint8Array {
  const n = columns.ids.length;
  const parent = new Int32Array(n).fill(-1);
  const children = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = columns.parents[i]!;
    if (p >= 0 && p !== i) {
      parent[i] = p;
      children[p]!++;
    }
  }
  const message = columns.typeNames.indexOf("message");
  const compaction = columns.typeNames.indexOf("compaction");
  const branchSummary = columns.typeNames.indexOf("branch_summary");
  const user = columns.roleNames.indexOf("user");
  const pinned = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const t = columns.types[i]!;
    if (parent[i]! < 0 || children[i] !== 1 || t === compaction || t === branchSummary) pinned[i] = 1;
  }
  const pinId = (id: string | null | undefined) => {
    const k = id == null ? undefined : positionOf(id);
    if (k !== undefined) pinned[k] = 1;
  };
  const label = columns.sparse.label ?? [];
  for (let k = 0; k + 1 < label.length; k += 2) pinned[label[k] as number] = 1;
  for (const field of ["firstKeptEntryId", "fromId"] as const) {
    const list = columns.sparse[field] ?? [];
    for (let k = 0; k + 1 < list.length; k += 2) pinId(list[k + 1] as string);
  }
  pinId(columns.leafId);
  const heads = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (pinned[i] || columns.types[i] !== message || (user !== -1 && columns.roles[i] === user) || (parent[i]! >= 0 && pinned[parent[i]!])) heads[i] = 1;
  }
  return heads;
}

/** The packed skeleton with the previews of `heads` only (`previewOf` gives the preview at a position). */
export function withHeadPreviews(columns: PackedColumns, heads: Uint8Array, previewOf: (positions: number[]) => string[]): PackedSkeleton {
  const previewAt: number[] = [];
  for (let i = 0; i < heads.length; i++) if (heads[i]) previewAt.push(i);
  return { ...columns, previews: previewOf(previewAt), previewAt };
}

/** first positions of the ids of `nodes` */
function positions(nodes: readonly SkeletonNode[]): Map<string, number> {
  const position = new Map<string, number>();
  for (let i = 0; i < nodes.length; i++) if (!position.has(nodes[i]!.id)) position.set(nodes[i]!.id, i);
  return position;
}

function packColumns(skeleton: TreeSkeleton, position: Map<string, number>): PackedColumns {
  const nodes = skeleton.nodes;
  const writer = packedColumnsWriter(skeleton.sessionId, skeleton.leafId, nodes.length, (id) => position.get(id));
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    writer.row(i, node);
    for (const field of SPARSE_SKELETON_FIELDS) {
      const value = node[field];
      if (value !== undefined) writer.sparse(field, i, value);
    }
  }
  return writer.columns;
}

/** previewHeads of a skeleton of nodes (see packedPreviewHeads) */
export function previewHeads(skeleton: TreeSkeleton): Uint8Array {
  const position = positions(skeleton.nodes);
  return packedPreviewHeads(packColumns(skeleton, position), (id) => position.get(id));
}

export interface PackOptions {
  /** "heads": the previews of `previewHeads` only (the open path); default: every preview */
  previews?: "all" | "heads";
}

export function packSkeleton(skeleton: TreeSkeleton, options: PackOptions = {}): PackedSkeleton {
  const nodes = skeleton.nodes;
  const position = positions(nodes);
  const columns = packColumns(skeleton, position);
  if (options.previews !== "heads") return { ...columns, previews: nodes.map((n) => n.preview) };
  const heads = packedPreviewHeads(columns, (id) => position.get(id));
  return withHeadPreviews(columns, heads, (at) => at.map((i) => nodes[i]!.preview));
}

export class SkeletonWireError extends Error {
  constructor(message: string) {
    super(`malformed tree skeleton: ${message}`);
    this.name = "SkeletonWireError";
  }
}

/**
 * A node whose ISO timestamp text is made when it is first read: formatting 100,000 of them took
 * about half of unpacking a big session in the page, which shows a few hundred.
 */
class LazyTimeNode {
  /** ms since the epoch, or the verbatim text */
  readonly #at: number | string;
  constructor(
    readonly id: string,
    readonly parentId: string | null,
    readonly type: string,
    readonly role: string | null,
    at: number | string,
    readonly tokens: number,
    public preview: string,
  ) {
    this.#at = at;
  }

  get timestamp(): string {
    return typeof this.#at === "string" ? this.#at : new Date(this.#at).toISOString();
  }
}

export interface UnpackOptions {
  /**
   * "lazy": each node's `timestamp` is made from its ms when read (a getter: not an own property,
   * so a spread or JSON.stringify of a node leaves it out); for a renderer that reads a few.
   * Default "text": plain objects, every field an own property.
   */
  timestamps?: "text" | "lazy";
}

export function unpackSkeleton(packed: PackedSkeleton, options: UnpackOptions = {}): TreeSkeleton {
  if (packed.v !== SKELETON_WIRE_VERSION) throw new SkeletonWireError(`wire version ${String(packed.v)} (expected ${SKELETON_WIRE_VERSION})`);
  const n = packed.ids.length;
  for (const column of ["parents", "types", "roles", "times", "tokens"] as const) {
    if (packed[column].length !== n) throw new SkeletonWireError(`${column} has ${packed[column].length} values for ${n} entries`);
  }
  const previewAt = packed.previewAt;
  const previewCount = previewAt ? previewAt.length : n;
  if (packed.previews.length !== previewCount) throw new SkeletonWireError(`previews has ${packed.previews.length} values for ${previewCount} entries`);
  const lazy = options.timestamps === "lazy";
  let nextPreview = 0;
  const dangling = new Map<number, string>();
  for (let k = 0; k + 1 < packed.danglingParents.length; k += 2) dangling.set(packed.danglingParents[k] as number, packed.danglingParents[k + 1] as string);
  const nodes = new Array<SkeletonNode>(n);
  let previousMs = 0;
  for (let i = 0; i < n; i++) {
    const p = packed.parents[i]!;
    const parentId = p === NO_PARENT ? null : p === DANGLING_PARENT ? dangling.get(i) : packed.ids[p];
    if (parentId === undefined) throw new SkeletonWireError(`entry ${i} has parent position ${p}`);
    const type = packed.typeNames[packed.types[i]!];
    if (type === undefined) throw new SkeletonWireError(`entry ${i} has type code ${packed.types[i]}`);
    const r = packed.roles[i]!;
    const role = r < 0 ? null : packed.roleNames[r];
    if (role === undefined) throw new SkeletonWireError(`entry ${i} has role code ${r}`);
    const time = packed.times[i]!;
    if (typeof time === "number") previousMs += time;
    const at = typeof time === "string" ? time : previousMs;
    const later = previewAt !== undefined && previewAt[nextPreview] !== i;
    const preview = later ? "" : packed.previews[previewAt ? nextPreview++ : i]!;
    const id = packed.ids[i]!;
    const tokens = packed.tokens[i]!;
    let node: SkeletonNode;
    if (lazy) node = new LazyTimeNode(id, parentId, type, role, at, tokens, preview);
    else node = { id, parentId, type, role, timestamp: typeof at === "string" ? at : new Date(at).toISOString(), tokens, preview };
    if (later) node.previewLater = true;
    nodes[i] = node;
  }
  if (previewAt && nextPreview !== previewAt.length) throw new SkeletonWireError(`previewAt is not ascending positions of entries`);
  for (const field of SPARSE_SKELETON_FIELDS) {
    const list = packed.sparse[field];
    if (!list) continue;
    for (let k = 0; k + 1 < list.length; k += 2) {
      const node = nodes[list[k] as number];
      if (!node) throw new SkeletonWireError(`${field} names entry ${String(list[k])}`);
      (node as unknown as Record<string, unknown>)[field] = list[k + 1];
    }
  }
  return { sessionId: packed.sessionId, leafId: packed.leafId, nodes };
}
