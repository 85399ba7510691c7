/**
 * The fresh import's bar (docs/PERFORMANCE.md): the whole-process CPU of `bonsai import FILE` on a
 * new database against the floor's (floor.cjs: read the file, JSON.parse every line), Node's start
 * included in both, as a user pays it. Both ran in every round, side by side: the ratio of each
 * round, and the ratio of the medians that the target is checked on.
 */
import { median } from "@bonsai/testkit";
import { fmt } from "./numbers";

/** a fresh import of 100,000 entries costs at most this many times the floor's CPU */
export const IMPORT_TARGET = 1.8;

export interface ImportBar {
  /** median import CPU / median floor CPU */
  ratio: number;
  /** import CPU / floor CPU of each round */
  rounds: number[];
  met: boolean;
  /** the line the comparison prints under its table */
  line: string;
  /** what its `- met:` / `- MISSED:` line says */
  check: string;
}

/** The bar from each round's CPU (ms, whole processes) of the fresh import and of the floor. */
export function importBar(importCpuMs: readonly number[], floorCpuMs: readonly number[]): ImportBar {
  if (importCpuMs.length === 0 || importCpuMs.length !== floorCpuMs.length) {
    throw new Error(`importBar: ${importCpuMs.length} import runs against ${floorCpuMs.length} floor runs (one of each per round)`);
  }
  const imported = median(importCpuMs);
  const floor = median(floorCpuMs);
  const ratio = imported / floor;
  const rounds = importCpuMs.map((ms, i) => ms / (floorCpuMs[i] as number));
  const line =
    "Fresh import against the floor (whole-process CPU, Node's start included: `bonsai import FILE` on a new database, " +
    "the floor `node packages/bench/bench/floor.cjs FILE` reading the file and JSON.parsing every line): " +
    `${fmt(imported)} ms / ${fmt(floor)} ms = ${fmt(ratio, 2)}x ` +
    `(rounds: ${rounds.map((r) => `${fmt(r, 2)}x`).join(", ")}; target at most ${IMPORT_TARGET}x)`;
  return { ratio, rounds, met: ratio <= IMPORT_TARGET, line, check: `import at most ${IMPORT_TARGET}x the floor's CPU, whole processes (${fmt(ratio, 2)}x)` };
}
