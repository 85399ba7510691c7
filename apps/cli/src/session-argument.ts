/**
 * What a SESSION argument of a read command names, told without reading anything: a file when one
 * exists at that path, otherwise (when it looks like one) a session id or prefix in the Bonsai
 * database. session-source.ts resolves arguments with these rules, and the command line uses them
 * to send a stored id straight to the stored-read bundle (stored-read.ts).
 */
import { statSync } from "node:fs";
import type { ParsedArgs } from "./args";

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

/** whether the command line (`name` parsed as `args`) is a read command on what may be a stored session id: the stored-read bundle's to try */
export function isStoredRead(name: string, args: ParsedArgs): name is StoredReadCommand {
  const read = name === "context" || name === "plan" || name === "branch" || (name === "prune" && args.options["dry-run"] === true);
  // a session on a team archive (--archive) is the archive's to answer, never the local store's
  return read && args.options.archive === undefined && namesStoredSession(args.positionals[0] ?? "");
}
