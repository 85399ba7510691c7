/**
 * `bonsai amnesia SESSION [--json]`: core's amnesia report (amnesia.ts) of a session file or stored
 * session. `bonsai amnesia --all [--json]`: core's amnesiaOverview over every stored session with a
 * compaction or pruning (on a team archive, `--archive URL --all`: archive-read.ts).
 */
import { amnesiaOverview, amnesiaReport, amnesiaSessionRow, type AmnesiaFinding, type AmnesiaSessionRow } from "@bonsai/core";
import type { ParsedArgs } from "../args";
import { amnesiaOverviewText } from "../amnesia-table";
import { UsageError } from "../errors";
import { printJson, warn, type Io } from "../output";
import { reportIssues, resolveLeafId, withSessionOf } from "../session-source";
import { withCliStore } from "../store-db";
import type { Command } from "./command";

function findingLines(findings: readonly AmnesiaFinding[]): string[] {
  return findings.map((f) => `  ${f.kind}: ${f.detail} [${f.entryIds.join(", ")}]`);
}

/** The command line's choice between one SESSION and --all (with or without --archive); exit 2 when it is wrong. */
export function checkAmnesiaArgs(args: ParsedArgs): void {
  const session = args.positionals[0];
  if (args.options.all && session !== undefined) throw new UsageError("give SESSION or --all, not both");
  if (!args.options.all && session === undefined) throw new UsageError("missing SESSION (or --all): usage: bonsai amnesia SESSION|--all [--archive URL [--project NAME]] [--json]");
  const project = args.options.project as string | undefined;
  if (project !== undefined && (args.options.archive === undefined || !args.options.all)) throw new UsageError("--project goes with --archive URL --all");
  if (project !== undefined && project.trim() === "") throw new UsageError("--project needs a project name");
}

async function one(args: ParsedArgs, io: Io): Promise<void> {
  const { label, report } = await withSessionOf(args, (session) => {
    reportIssues(io, session);
    return { label: session.label, report: amnesiaReport(session.entries(), resolveLeafId(session, undefined)) };
  });
  if (args.options.json) {
    printJson(io, report);
    return;
  }
  const lines: string[] = [];
  if (report.compactions.length === 0 && report.prunings.length === 0) lines.push(`${label}: no compaction or pruning to look at`);
  for (const c of report.compactions) {
    lines.push(`Compaction ${c.compactionId}: score ${c.score}${c.findings.length === 0 ? ", no sign of lost context" : ""}`, ...findingLines(c.findings));
  }
  for (const p of report.prunings) {
    lines.push(`Pruning after ${p.atEntryId} (${p.prunedEntryIds.length} outputs): score ${p.score}${p.findings.length === 0 ? ", no sign of lost context" : ""}`, ...findingLines(p.findings));
  }
  io.stdout(`${lines.join("\n")}\n`);
}

/** Every stored session the store counts a compaction or a pruned output in (the others have nothing to report). */
async function all(args: ParsedArgs, io: Io): Promise<void> {
  const overview = await withCliStore(args, { create: false }, (store) => {
    const titles = store.getSessionTitles();
    const rows: AmnesiaSessionRow[] = [];
    for (const s of store.listSessions()) {
      if (s.compactionCount === 0 && s.prunedCount === 0) continue;
      try {
        const report = amnesiaReport(store.loadEntries(s.id), s.leafId);
        const row = amnesiaSessionRow({ sessionId: s.id, project: null, pushedBy: null, title: titles.get(s.id) ?? s.title, agent: s.agent }, report);
        if (row) rows.push(row);
      } catch (err) {
        warn(io, `session ${s.id} left out: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
      }
    }
    return amnesiaOverview(rows);
  });
  if (args.options.json) printJson(io, overview);
  else io.stdout(amnesiaOverviewText(overview, "the local store"));
}

export const amnesiaCommand: Command = {
  async run(args, io) {
    checkAmnesiaArgs(args);
    if (args.options.all) await all(args, io);
    else await one(args, io);
  },
};
