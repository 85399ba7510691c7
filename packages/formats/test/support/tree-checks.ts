/** Tree facts the reader tests assert on any session. */
import { buildIndex, findRoots, type SessionEntry } from "@bonsai/core";
import { sourceLines, type ReadSession } from "../../src/index";

/** Ids of entries with more than one child (branch points). */
export function branchPoints(entries: readonly SessionEntry[]): string[] {
  const index = buildIndex(entries);
  return [...index.children].filter(([, children]) => children.length > 1).map(([id]) => id);
}

export function roots(entries: readonly SessionEntry[]): SessionEntry[] {
  return findRoots(entries);
}

/** The line numbers held by the entries' sources, sorted (each line must appear exactly once). */
export function coveredLines(session: ReadSession): number[] {
  const lines = session.entries.flatMap((e) => sourceLines(e).map((l) => l.n));
  for (const l of session.original?.trailing ?? []) lines.push(l.n);
  return lines.sort((a, b) => a - b);
}

export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}
