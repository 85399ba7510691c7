/**
 * What-if and amnesia benchmark: on generated sessions of 2,000, 10,000 and 30,000 entries (no
 * compaction in the file, so the replay compacts them; the explorer bench's content scale, and the
 * default scale) and on the two fixture sessions when present:
 *   prepare   prepareWhatIf once per session (what the backend keeps)
 *   replay    runWhatIf under the default settings and under a larger reserve, median of 9 each
 *   amnesia   amnesiaReport over all entries (sessions with compactions: a compaction every 1,500)
 * Wall and CPU medians; CPU is steadier on a busy machine.
 *
 *   node --import tsx packages/core/bench/whatif.bench.ts
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  amnesiaReport,
  buildIndex,
  DEFAULT_SETTINGS,
  defaultLeafId,
  getPath,
  migrateSession,
  parseSessionText,
  prepareWhatIf,
  runWhatIf,
  whatIfSettingsOf,
  type SessionEntry,
} from "../src/index";
import { markdownTable, timeMedian } from "../../testkit/src/bench";
import { generateSession } from "../../testkit/src/generate-session";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = ["before-compaction.jsonl", "large-session.jsonl"].map((f) => resolve(here, "../../../../shared/fixtures", f));

interface Case {
  name: string;
  entries: SessionEntry[];
  amnesia: SessionEntry[];
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const [entries, scale] of [
    [2_000, 1],
    [10_000, 0.25],
    [10_000, 1],
    [30_000, 0.25],
  ] as const) {
    const options = { entries, seed: 100, contentScale: scale };
    out.push({
      name: `generated ${entries.toLocaleString("en")} (scale ${scale})`,
      entries: generateSession({ ...options, compactionInterval: 0 }).entries,
      amnesia: generateSession(options).entries,
    });
  }
  for (const file of fixtures) {
    if (!existsSync(file)) continue;
    const parsed = parseSessionText(readFileSync(file, "utf8"));
    if (!parsed.header) continue;
    migrateSession(parsed.header, parsed.entries);
    out.push({ name: file.split("/").pop() as string, entries: parsed.entries, amnesia: parsed.entries });
  }
  return out;
}

const rows: (string | number)[][] = [];
const f = (n: number) => Math.round(n).toLocaleString("en");
for (const c of cases()) {
  const path = getPath(buildIndex(c.entries), defaultLeafId(c.entries));
  const prepare = timeMedian(() => prepareWhatIf(path), 3);
  const defaults = whatIfSettingsOf(DEFAULT_SETTINGS);
  runWhatIf(prepare.result, defaults); // warm
  const replay = timeMedian(() => runWhatIf(prepare.result, defaults), 9);
  const larger = timeMedian(() => runWhatIf(prepare.result, { ...defaults, reserveTokens: 80_000 }), 9);
  const amnesia = timeMedian(() => amnesiaReport(c.amnesia), 3);
  rows.push([
    c.name,
    f(path.length),
    `${f(prepare.ms)} / ${f(prepare.cpuMs)}`,
    `${f(replay.ms)} / ${f(replay.cpuMs)}`,
    `${replay.result.candidate.compactions.length}`,
    `${f(larger.ms)} / ${f(larger.cpuMs)}`,
    `${larger.result.candidate.compactions.length}`,
    `${f(amnesia.ms)} / ${f(amnesia.cpuMs)}`,
    `${amnesia.result.compactions.length}`,
  ]);
}
console.log(
  markdownTable(
    ["session", "active path", "prepare ms (wall / CPU)", "replay, defaults", "compactions", "replay, reserve 80,000", "compactions", "amnesia report", "compactions read"],
    rows,
  ),
);
