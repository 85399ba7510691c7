/** `bonsai amnesia SESSION [--json]`: core's amnesia report (amnesia.ts) of a session file or stored session. */
import { amnesiaReport, type AmnesiaFinding } from "@bonsai/core";
import { printJson } from "../output";
import { reportIssues, resolveLeafId, withSessionOf } from "../session-source";
import type { Command } from "./command";

function findingLines(findings: readonly AmnesiaFinding[]): string[] {
  return findings.map((f) => `  ${f.kind}: ${f.detail} [${f.entryIds.join(", ")}]`);
}

export const amnesiaCommand: Command = {
  async run(args, io) {
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
  },
};
