/** "produced N commits" and one line per commit (short sha, date, subject, files), for ls and context. */
import type { SessionCommit } from "@bonsai/store";

const FILES_SHOWN = 4;

export function producedCommits(n: number): string {
  return `produced ${n} commit${n === 1 ? "" : "s"}`;
}

export function commitLines(commits: readonly SessionCommit[], indent: string): string[] {
  if (commits.length === 0) return [];
  const lines = [`${indent}${producedCommits(commits.length)}:`];
  for (const c of commits) {
    const shown = c.files.slice(0, FILES_SHOWN).join(", ");
    const more = c.files.length > FILES_SHOWN ? `, … ${c.files.length - FILES_SHOWN} more` : "";
    const files = c.files.length > 0 ? ` (${c.files.length} file${c.files.length === 1 ? "" : "s"}: ${shown}${more})` : "";
    lines.push(`${indent}  ${c.sha.slice(0, 10)} ${c.date.slice(0, 10)} ${c.subject}${files}`);
  }
  return lines;
}
