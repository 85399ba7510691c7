/**
 * The entry tree (spec: session-format.md §6.3, §4.8): index, paths, leaves, roots, common
 * ancestor, labels and the timestamp-sorted tree view. Everything is linear in the number of
 * entries and iterative (a 100,000-entry chain never recurses).
 */
import type { SessionEntry } from "./entries";

export interface SessionIndex {
  /** id -> entry; on duplicate ids the last entry in file order wins */
  byId: Map<string, SessionEntry>;
  /** parent id -> children in file order (only the winning entry of each id) */
  children: Map<string, SessionEntry[]>;
  /** id -> file position of the winning entry */
  position: Map<string, number>;
}

/** The children list of an entry that has none. */
const NO_CHILDREN: readonly SessionEntry[] = Object.freeze([]);

export function buildIndex(entries: readonly SessionEntry[]): SessionIndex {
  const byId = new Map<string, SessionEntry>();
  const position = new Map<string, number>();
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as SessionEntry;
    byId.set(e.id, e);
    position.set(e.id, i);
  }
  const children = new Map<string, SessionEntry[]>();
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as SessionEntry;
    if (position.get(e.id) !== i) continue; // a shadowed duplicate
    const parent = e.parentId;
    if (parent === null || parent === undefined || parent === "" || parent === e.id) continue;
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(e);
  }
  return { byId, children, position };
}

export function childrenOf(index: SessionIndex, id: string): readonly SessionEntry[] {
  return index.children.get(id) ?? NO_CHILDREN;
}

/** The leaf a file opens at: the last entry in file order (null for no entries). */
export function defaultLeafId(entries: readonly SessionEntry[]): string | null {
  return entries.length === 0 ? null : (entries[entries.length - 1] as SessionEntry).id;
}

/**
 * Path from the root to `leafId` (root first). The walk stops at a null/empty parent, an unknown
 * parent (an orphan behaves as a root) or an entry already visited (a cycle: the repeated node is
 * treated as the root). An unknown leaf gives an empty path. `byId` maps each entry's own id to it
 * (as buildIndex does).
 */
export function getPath(index: Pick<SessionIndex, "byId">, leafId: string | null | undefined): SessionEntry[] {
  const path: SessionEntry[] = [];
  if (leafId === null || leafId === undefined) return path;
  // The walk is deterministic: once it meets an entry twice it would cycle forever. So a walk that
  // ends (root, orphan) within byId.size steps met no entry twice and needs no visited set; only a
  // longer walk (a cycle) is redone with one.
  const limit = index.byId.size;
  let node = index.byId.get(leafId);
  while (node) {
    if (path.length >= limit) return getPathChecked(index, leafId);
    path.push(node);
    const parent = node.parentId;
    if (parent === null || parent === undefined || parent === "") break;
    node = index.byId.get(parent);
  }
  return path.reverse();
}

/** getPath with a visited set: stops before the first entry met twice. */
function getPathChecked(index: Pick<SessionIndex, "byId">, leafId: string): SessionEntry[] {
  const path: SessionEntry[] = [];
  const seen = new Set<string>();
  let current = index.byId.get(leafId);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.push(current);
    const parent = current.parentId;
    if (parent === null || parent === undefined || parent === "") break;
    current = index.byId.get(parent);
  }
  return path.reverse();
}

/** Ids of getPath. */
export function getPathIds(index: Pick<SessionIndex, "byId">, leafId: string | null | undefined): string[] {
  return getPath(index, leafId).map((e) => e.id);
}

/** True when `parentId` makes the entry a root: null/empty, its own id, or an unknown id. */
export function isRootEntry(index: SessionIndex, entry: SessionEntry): boolean {
  const parent = entry.parentId;
  return parent === null || parent === undefined || parent === "" || parent === entry.id || !index.byId.has(parent);
}

/** Roots in file order: null parent, self parent, or orphan (parent not found). */
export function findRoots(entries: readonly SessionEntry[], index: SessionIndex = buildIndex(entries)): SessionEntry[] {
  const roots: SessionEntry[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as SessionEntry;
    if (index.position.get(e.id) === i && isRootEntry(index, e)) roots.push(e);
  }
  return roots;
}

/** Leaves in file order: entries without children. */
export function findLeaves(entries: readonly SessionEntry[], index: SessionIndex = buildIndex(entries)): SessionEntry[] {
  const leaves: SessionEntry[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as SessionEntry;
    if (index.position.get(e.id) === i && !index.children.has(e.id)) leaves.push(e);
  }
  return leaves;
}

/**
 * The deepest entry on both paths (null when the two paths share nothing, e.g. different roots).
 * Linear: one path into a set, the other walked from its end.
 */
export function findCommonAncestor(index: Pick<SessionIndex, "byId">, a: string | null, b: string | null): string | null {
  const pathA = getPath(index, a);
  if (pathA.length === 0) return null;
  const onA = new Set(pathA.map((e) => e.id));
  const pathB = getPath(index, b);
  for (let i = pathB.length - 1; i >= 0; i--) {
    const id = (pathB[i] as SessionEntry).id;
    if (onA.has(id)) return id;
  }
  return null;
}

/** target id -> label: the last label entry per target (file order) wins; empty/absent clears. */
export function resolveLabels(entries: readonly SessionEntry[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const e of entries) {
    if (e.type !== "label") continue;
    const { targetId, label } = e as { targetId?: unknown; label?: unknown };
    if (typeof targetId !== "string") continue;
    if (typeof label === "string" && label.length > 0) labels.set(targetId, label);
    else labels.delete(targetId);
  }
  return labels;
}

export interface TreeNode {
  entry: SessionEntry;
  children: TreeNode[];
  /** resolved label of this entry */
  label?: string;
}

function timeOf(entry: SessionEntry): number {
  const t = Date.parse(entry.timestamp);
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/**
 * The tree view (getTree): roots in file order (null parent, self parent, orphan), children sorted
 * by timestamp ascending with ties in file order, each node with its resolved label. Entries caught
 * in a parent cycle (a -> b -> a) would have no root; the first of them in file order becomes one,
 * so every entry appears exactly once.
 */
export function getTree(entries: readonly SessionEntry[], index: SessionIndex = buildIndex(entries)): TreeNode[] {
  const labels = resolveLabels(entries);
  const nodes = new Map<string, TreeNode>();
  const times = new Map<string, number>();
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as SessionEntry;
    if (index.position.get(e.id) !== i) continue;
    const node: TreeNode = { entry: e, children: [] };
    const label = labels.get(e.id);
    if (label !== undefined) node.label = label;
    nodes.set(e.id, node);
    times.set(e.id, timeOf(e));
  }
  const byTime = (x: TreeNode, y: TreeNode): number => {
    const d = (times.get(x.entry.id) as number) - (times.get(y.entry.id) as number);
    return Number.isNaN(d) ? 0 : d;
  };
  const roots: TreeNode[] = [];
  const attached = new Set<string>();
  const attach = (root: TreeNode): void => {
    // iterative walk from a root; a node is attached once, which also cuts any cycle
    attached.add(root.entry.id);
    const stack: TreeNode[] = [root];
    while (stack.length > 0) {
      const node = stack.pop() as TreeNode;
      for (const child of childrenOf(index, node.entry.id)) {
        if (attached.has(child.id)) continue;
        const childNode = nodes.get(child.id) as TreeNode;
        attached.add(child.id);
        node.children.push(childNode);
        stack.push(childNode);
      }
      node.children.sort(byTime);
    }
  };
  for (const e of findRoots(entries, index)) {
    const node = nodes.get(e.id) as TreeNode;
    roots.push(node);
    attach(node);
  }
  if (attached.size < nodes.size) {
    for (const node of nodes.values()) {
      if (attached.has(node.entry.id)) continue;
      roots.push(node);
      attach(node);
    }
  }
  return roots;
}
