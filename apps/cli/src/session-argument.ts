/**
 * What a SESSION argument of a read command names, told without reading anything: a file when one
 * exists at that path, otherwise (when it looks like one) a session id or prefix in the Bonsai
 * database. session-source.ts resolves arguments with these rules, and the command line uses them
 * to send a stored id straight to the stored-read bundle (stored-read.ts).
 */
import { statSync } from "node:fs";

/** A path-like argument (a separator or a .jsonl name) is a missing file, never a stored id. */
export function looksLikeSessionId(arg: string): boolean {
  return !/[/\\]/.test(arg) && !arg.endsWith(".jsonl");
}

/** whether no file exists at `arg` (ENOENT) and it may be a stored session id; false for any other error, which the file side reports */
export function namesStoredSession(arg: string): boolean {
  if (arg.trim() === "" || !looksLikeSessionId(arg)) return false;
  try {
    statSync(arg);
    return false;
  } catch (err) {
    return (err as { code?: string }).code === "ENOENT";
  }
}

/** The read commands the stored-read bundle answers on a stored id (prune: its dry runs). */
export type StoredReadCommand = "context" | "plan" | "prune" | "branch";

export function isStoredRead(name: string, dryRun: unknown): name is StoredReadCommand {
  return name === "context" || name === "plan" || name === "branch" || (name === "prune" && dryRun === true);
}
