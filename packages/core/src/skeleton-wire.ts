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

/**
 * The entries whose previews the tree may show without the user expanding anything, as a mask
 * over `skeleton.nodes`: entries that are not messages, user messages (a collapsed run shows its
 * first one), the entries the explorer always draws on their own (roots, leaves, branch points,
 * labelled entries, compactions and branch summaries and the entries they point at, the leaf)
 * and the entries right after those (where a collapsed run starts). About one in seven of a
 * generated session's entries, fewer in an agent's (long tool loops); any other preview the
 * explorer needs it asks for (getPreviews).
 */
export function previewHeads(skeleton: TreeSkeleton): Uint8Array {
  const nodes = skeleton.nodes;
  const n = nodes.length;
  const position = new Map<string, number>();
  for (let i = 0; i < n; i++) if (!position.has(nodes[i]!.id)) position.set(nodes[i]!.id, i);
  const parent = new Int32Array(n).fill(-1);
  const children = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const id = nodes[i]!.parentId;
    const p = id === null ? undefined : position.get(id);
    if (p !== undefined && p !== i) {
      parent[i] = p;
      children[p]!++;
    }
  }
  const pinned = new Uint8Array(n);
  const pin = (id: string | null | undefined) => {
    const k = id == null ? undefined : position.get(id);
    if (k !== undefined) pinned[k] = 1;
  };
  for (let i = 0; i < n; i++) {
    const node = nodes[i]!;
    if (parent[i]! < 0 || children[i] !== 1 || node.label !== undefined || node.type === "compaction" || node.type === "branch_summary") pinned[i] = 1;
    pin(node.firstKeptEntryId);
    pin(node.fromId);
  }
  pin(skeleton.leafId);
  const heads = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const node = nodes[i]!;
    if (pinned[i] || node.type !== "message" || node.role === "user" || (parent[i]! >= 0 && pinned[parent[i]!])) heads[i] = 1;
  }
  return heads;
}

export interface PackOptions {
  /** "heads": the previews of `previewHeads` only (the open path); default: every preview */
  previews?: "all" | "heads";
}

export function packSkeleton(skeleton: TreeSkeleton, options: PackOptions = {}): PackedSkeleton {
  const nodes = skeleton.nodes;
  const n = nodes.length;
  const position = new Map<string, number>();
  for (let i = 0; i < n; i++) if (!position.has(nodes[i]!.id)) position.set(nodes[i]!.id, i);
  const heads = options.previews === "heads" ? previewHeads(skeleton) : null;
  const types = dictionary();
  const roles = dictionary();
  const packed: PackedSkeleton = {
    v: SKELETON_WIRE_VERSION,
    sessionId: skeleton.sessionId,
    leafId: skeleton.leafId,
    ids: new Array<string>(n),
    parents: new Array<number>(n),
    danglingParents: [],
    typeNames: types.names,
    types: new Array<number>(n),
    roleNames: roles.names,
    roles: new Array<number>(n),
    times: new Array<number | string>(n),
    tokens: new Array<number>(n),
    previews: heads ? [] : new Array<string>(n),
    sparse: {},
  };
  if (heads) packed.previewAt = [];
  let previousMs = 0;
  for (let i = 0; i < n; i++) {
    const node = nodes[i]!;
    packed.ids[i] = node.id;
    if (node.parentId === null) packed.parents[i] = NO_PARENT;
    else {
      const p = position.get(node.parentId);
      if (p === undefined) {
        packed.parents[i] = DANGLING_PARENT;
        packed.danglingParents.push(i, node.parentId);
      } else packed.parents[i] = p;
    }
    packed.types[i] = types.code(node.type);
    packed.roles[i] = node.role === null ? -1 : roles.code(node.role);
    const ms = exactMs(node.timestamp);
    if (ms === null) packed.times[i] = node.timestamp;
    else {
      packed.times[i] = ms - previousMs;
      previousMs = ms;
    }
    packed.tokens[i] = node.tokens;
    if (!heads) packed.previews[i] = node.preview;
    else if (heads[i]) {
      packed.previewAt!.push(i);
      packed.previews.push(node.preview);
    }
    for (const field of SPARSE_SKELETON_FIELDS) {
      const value = node[field];
      if (value === undefined) continue;
      (packed.sparse[field] ??= []).push(i, value);
    }
  }
  return packed;
}

export class SkeletonWireError extends Error {
  constructor(message: string) {
    super(`malformed tree skeleton: ${message}`);
    this.name = "SkeletonWireError";
  }
}

export function unpackSkeleton(packed: PackedSkeleton): TreeSkeleton {
  if (packed.v !== SKELETON_WIRE_VERSION) throw new SkeletonWireError(`wire version ${String(packed.v)} (expected ${SKELETON_WIRE_VERSION})`);
  const n = packed.ids.length;
  for (const column of ["parents", "types", "roles", "times", "tokens"] as const) {
    if (packed[column].length !== n) throw new SkeletonWireError(`${column} has ${packed[column].length} values for ${n} entries`);
  }
  const previewAt = packed.previewAt;
  const previewCount = previewAt ? previewAt.length : n;
  if (packed.previews.length !== previewCount) throw new SkeletonWireError(`previews has ${packed.previews.length} values for ${previewCount} entries`);
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
    let timestamp: string;
    if (typeof time === "string") timestamp = time;
    else {
      previousMs += time;
      timestamp = new Date(previousMs).toISOString();
    }
    if (!previewAt) nodes[i] = { id: packed.ids[i]!, parentId, type, role, timestamp, tokens: packed.tokens[i]!, preview: packed.previews[i]! };
    else if (previewAt[nextPreview] === i) nodes[i] = { id: packed.ids[i]!, parentId, type, role, timestamp, tokens: packed.tokens[i]!, preview: packed.previews[nextPreview++]! };
    else nodes[i] = { id: packed.ids[i]!, parentId, type, role, timestamp, tokens: packed.tokens[i]!, preview: "", previewLater: true };
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
