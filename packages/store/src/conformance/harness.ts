/**
 * What the conformance suite needs from an implementation of `SessionStore`, and the session files
 * it works on: the real fixtures (read in place) and small pi sessions it writes into the
 * implementation's temporary folder. Written only against the `SessionStore` interface.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionStore } from "../session-store";


/** A method that may answer at once or through a promise. */
type MayAwait<F> = F extends (...args: infer A) => infer R ? (...args: A) => R | Promise<Awaited<R>> : never;

/** The methods of `SessionStore` the suite calls. */
export type ConformanceMethod =
  | "importFile" | "importPaths" | "listSessions" | "getSession" | "resolveSessionId" | "getHeader" | "getLeaf" | "setLeaf"
  | "loadEntries" | "getEntry" | "getEntryInfo" | "getEntries" | "hasEntry" | "getPreviews" | "getLabel" | "lastEntryId"
  | "getSkeleton" | "getPackedSkeleton" | "getSkeletonTail" | "countSessionShape" | "getPath" | "getPathNodes" | "isOnPath" | "areOnPath"
  | "getContextEntries" | "getContextSummary" | "appendEntry" | "appendLabel" | "applyPruning" | "restorePruned" | "listPruned"
  | "renderJsonl" | "exportJsonl" | "search" | "follow" | "getToolResultsOnPath" | "getPrunePlan" | "getPruneSummary" | "getBranchPlan"
  | "getCompactionWindow" | "getContextTokens" | "getSizeSeries" | "getContextMessages" | "readSession";

/**
 * What the suite tests: the `SessionStore` methods it calls, each of which may answer through a
 * promise (the SQLite store answers at once; an implementation over a database server cannot), and
 * `on` as the interface has it. The suite awaits every answer, so both run it unchanged.
 */
export type ConformanceStore = { [K in Exclude<ConformanceMethod, "follow">]: MayAwait<SessionStore[K]> } & {
  /** absent where the implementation has no follow() at all (a store worker: its host follows the files) */
  follow?: MayAwait<SessionStore["follow"]>;
} & Pick<SessionStore, "on">;

/** One fresh store for one test. */
export interface StoreUnderTest {
  store: ConformanceStore;
  /** an empty folder the suite may write session files into (removed by cleanup) */
  dir: string;
  /**
   * How a session file gets into this store; returns the stored session's id. Default:
   * `store.importFile(file)`. An implementation that is filled another way (a team archive fed
   * by a push) passes its own.
   */
  load?: (file: string) => Promise<string>;
  cleanup(): void | Promise<void>;
}

export type StoreFactory = () => StoreUnderTest | Promise<StoreUnderTest>;

/** What an implementation supports; each group of the suite runs only when its capability is true. */
export interface StoreCapabilities {
  /** importFile / importPaths and the import reports */
  import: boolean;
  /** sessions, entries, paths, contexts, skeletons, previews */
  read: boolean;
  /** appendEntry, appendLabel, setLeaf */
  write: boolean;
  /** changes reach the session's source file; export equals the file */
  writeThrough: boolean;
  /** applyPruning / restorePruned / listPruned */
  prune: boolean;
  search: boolean;
  /** follow(): what an agent appends to a file is read in */
  follow: boolean;
  /** on() / off(): entries-added and session-updated */
  events: boolean;
}

/** The capabilities whose operations change the store or read host files: declared false, they must refuse (read-only BonsaiError), not be skipped. */
export type RefusableCapability = "import" | "write" | "prune" | "follow";

export interface ConformanceOptions {
  /** the folder of the real session fixtures (pi/, claude-code/, codex/); default: ../shared/fixtures/real beside the repository */
  fixturesDir?: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_FIXTURES_DIR = path.resolve(here, "../../../../../shared/fixtures/real");

/** The real files the suite reads (chosen for their shapes; see the fixtures' README). */
export function realFixtures(dir: string) {
  return {
    /** pi v3, 202 lines, a real fork at assistant fa43908d whose abandoned branch has no summary */
    piBranched: path.join(dir, "pi", "mholtzscher__pi-herdr-subagents__1_full.jsonl"),
    /** pi v3, 10 lines: settings entries around two user turns */
    piTiny: path.join(dir, "pi", "raquezha__pi.dev__96_2b1009dcd7_2_full.jsonl"),
    /** pi v3, 34 lines, 20 tool results: prunable */
    piTools: path.join(dir, "pi", "codyborders__yinshi__34_1a3af3e9ec_3_full.jsonl"),
    /** Claude Code 2.1.5, 85 lines, starts mid-session, one compaction */
    claudeCode: path.join(dir, "claude-code", "entireio__cli__ca_fca7ea73ac_0_full.jsonl"),
    /** Codex sub-agent rollout, 15 lines */
    codex: path.join(dir, "codex", "iampkuhz__feipi-session-browser__rollout-2026-06-19T12-32-38-019ede26-ff03-7a82-bb34-cfab716a498a.jsonl"),
  };
}

export type RealFixtures = ReturnType<typeof realFixtures>;

/** Why the fixture groups are skipped ("" when the fixtures are there). */
export function missingFixtures(fixtures: RealFixtures): string {
  const missing = Object.values(fixtures).filter((f) => !fs.existsSync(f));
  return missing.length ? `real session fixtures not found (${missing[0]}): conformance groups that read them are skipped` : "";
}

/** The JSON objects of a JSONL file, in file order (blank lines skipped). */
export function jsonLines(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Copies a fixture into the store's folder (the suite never writes the shared files). */
export function copyInto(dir: string, file: string): string {
  const dest = path.join(dir, path.basename(file));
  fs.copyFileSync(file, dest);
  fs.chmodSync(dest, 0o644);
  return dest;
}

const T0 = Date.parse("2026-01-01T00:00:00.000Z");

/** A small pi v3 session file of user messages, one chain, written into `dir`. */
export function writePiSession(dir: string, id: string, texts: readonly string[]): string {
  const file = path.join(dir, `${id}.jsonl`);
  const lines: unknown[] = [{ type: "session", version: 3, id, timestamp: new Date(T0).toISOString(), cwd: "/conformance/project" }];
  texts.forEach((text, i) => {
    const at = T0 + (i + 1) * 1000;
    lines.push({
      type: "message",
      id: `${id}-e${i}`,
      parentId: i === 0 ? null : `${id}-e${i - 1}`,
      timestamp: new Date(at).toISOString(),
      message: { role: "user", content: text, timestamp: at },
    });
  });
  fs.writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return file;
}

/** Opens a store for one test and closes it after, whatever happens. */
export async function withStore<T>(factory: StoreFactory, body: (subject: Required<StoreUnderTest>) => Promise<T> | T): Promise<T> {
  const subject = await factory();
  const load = subject.load ?? (async (file: string) => {
    const report = await subject.store.importFile(file);
    if (!report.sessionId) throw new Error(`import of ${file} stored no session: ${report.message}`);
    return report.sessionId;
  });
  try {
    return await body({ ...subject, load });
  } finally {
    await subject.cleanup();
  }
}
