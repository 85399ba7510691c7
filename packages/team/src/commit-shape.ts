/**
 * The one shape check of a session's commit links as they cross HTTP (`[{sha, subject, date,
 * files}]`, every field a string, files strings): what a push sends the archive, and what the
 * archive answers `GET /api/session/commits` with.
 */
import type { PushedCommit } from "./receive";

const MAX_COMMITS = 10_000;
const MAX_FILES = 10_000;

/** The commits typed, or null when the value is not that shape (or longer than an archive takes). */
export function commitsOf(value: unknown): PushedCommit[] | null {
  if (!Array.isArray(value) || value.length > MAX_COMMITS) return null;
  const commits: PushedCommit[] = [];
  for (const c of value as unknown[]) {
    const o = c as Partial<PushedCommit> | null;
    if (!o || typeof o !== "object" || typeof o.sha !== "string" || typeof o.subject !== "string" || typeof o.date !== "string" || !Array.isArray(o.files)) return null;
    if (o.files.length > MAX_FILES || !o.files.every((f) => typeof f === "string")) return null;
    commits.push({ sha: o.sha, subject: o.subject, date: o.date, files: [...o.files] });
  }
  return commits;
}
