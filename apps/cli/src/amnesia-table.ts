/**
 * `bonsai amnesia --all` as text: totals by kind, the worst compactions and prunings of all, then
 * every session worst first. Titles, ids and names come from session files (or an archive): their
 * control characters are shown as `?`, so a session cannot move the cursor or colour the terminal.
 */
import { AMNESIA_KINDS, type AmnesiaKindCounts, type AmnesiaOverview } from "@bonsai/core";
import { column } from "./output";

/** `text` on one line with no control characters (untrusted text in a table). */
export function printable(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, "?");
}

function cell(text: string | null, width: number): string {
  return column(printable(text ?? ""), width);
}

function kinds(counts: AmnesiaKindCounts): string {
  const parts = AMNESIA_KINDS.filter((k) => counts[k] > 0).map((k) => `${k} ${counts[k]}`);
  return parts.length > 0 ? parts.join(", ") : "no sign of lost context";
}

/** `where` names what was read: "the local store", or the archive and project. */
export function amnesiaOverviewText(overview: AmnesiaOverview, where: string): string {
  const { totals } = overview;
  if (totals.sessions === 0) return `no session with a compaction or pruning in ${where}\n`;
  const archive = overview.sessions.some((s) => s.project !== null);
  const lines = [
    `Amnesia over ${totals.sessions} session${totals.sessions === 1 ? "" : "s"} of ${where} with a compaction or pruning (${totals.compactions} compactions, ${totals.prunings} prunings), total score ${totals.score}`,
    `  ${kinds(totals.findings)}`,
    "",
    "Worst compactions and prunings:",
    `  ${"SCORE".padStart(5)}  ${column("SESSION", 36)}  ${column("AT ENTRY", 24)}  FINDINGS`,
    ...overview.worst.map((w) => `  ${String(w.score).padStart(5)}  ${cell(w.sessionId, 36)}  ${cell(`${w.kind === "pruning" ? "pruning after " : ""}${w.entryId}`, 24)}  ${kinds(w.findings)}`),
    "",
    "Sessions, worst first:",
    `  ${"SCORE".padStart(5)}  ${"COMP".padStart(4)}  ${"PRUNE".padStart(5)}  ${column("AGENT", 11)}  ${archive ? `${column("PROJECT", 12)}  ${column("PUSHED BY", 12)}  ` : ""}${column("SESSION", 36)}  TITLE`,
    ...overview.sessions.map(
      (s) =>
        `  ${String(s.score).padStart(5)}  ${String(s.compactions).padStart(4)}  ${String(s.prunings).padStart(5)}  ${cell(s.agent, 11)}  ${archive ? `${cell(s.project, 12)}  ${cell(s.pushedBy, 12)}  ` : ""}${cell(s.sessionId, 36)}  ${cell(s.title, 60).trimEnd()}`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}
