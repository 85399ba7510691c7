/**
 * `-o FILE` never replaces a session file: an agent may be appending to it, and a plain replace
 * would cut its later lines off. Bonsai writes into session files only through the store's guarded
 * write-through (packages/store/src/source/); exports and migrations go to new files. A session
 * file is one whose first lines any reader of @bonsai/formats knows (pi / oh-my-pi, Claude Code,
 * Codex).
 */
import { detectFormat } from "@bonsai/formats";
import { UserError } from "./errors";
import { readHead } from "./read-head";

/** True when `file` exists and its first lines are a session of an agent Bonsai reads. */
export function isSessionFile(file: string): boolean {
  let head: string;
  try {
    head = readHead(file);
  } catch {
    return false;
  }
  return detectFormat(head).reader !== null;
}

/** Refuses an output path that names an existing session file. */
export function refuseSessionFileOutput(out: string): void {
  if (!isSessionFile(out)) return;
  throw new UserError(
    `${out} is an existing session file (an agent may be writing to it): Bonsai does not replace session files with -o; write to a new file, or move ${out} away first`,
  );
}
