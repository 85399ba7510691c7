/**
 * The read commands on a stored session id, as a chunk of their own (the command line loads it
 * lazily, cli.ts): `context`, `plan`, `prune --dry-run` and `branch` on a pi session in a database
 * that needs nothing but reading, answered through the store's reader without loading the file
 * side, the importer or the write path. The answers are the commands' own (commands/<name>.ts, on
 * the session stored-session.ts opens), with the command line's error policy; anything else (a
 * Claude Code or Codex session, a database to migrate or recover) is given back to the command's
 * usual path.
 */
import type { ParsedArgs } from "./args";
import { branchOn, requireTarget } from "./commands/branch";
import type { SessionCommand } from "./commands/command";
import { contextOn } from "./commands/context";
import { planOn } from "./commands/plan";
import { pruneDryRunOn } from "./commands/prune";
import { reportError } from "./errors";
import type { Io } from "./output";
import type { StoredReadCommand } from "./session-argument";
import type { LoadedSession } from "./session-source";
import { openStoredPiSession } from "./stored-session";
import type { BonsaiSettings } from "@bonsai/core";

const COMMANDS: Record<StoredReadCommand, { check?: (args: ParsedArgs) => unknown; on: SessionCommand; withSettings?: (session: LoadedSession, args: ParsedArgs, io: Io, settings: BonsaiSettings) => void }> = {
  // the window of the session's model under the saved settings (overrides from `bonsai config`)
  context: { on: contextOn, withSettings: (session, args, io, settings) => contextOn(session, args, io, settings.model) },
  plan: { on: planOn },
  prune: { on: pruneDryRunOn },
  branch: { check: requireTarget, on: branchOn },
};

/**
 * Runs the read command `name` on the stored session its SESSION argument names: the exit status,
 * or undefined when this is not a session it answers (run the command as usual then).
 */
export async function runStoredRead(name: StoredReadCommand, args: ParsedArgs, io: Io): Promise<number | undefined> {
  const command = COMMANDS[name];
  try {
    command.check?.(args);
    // the saved settings on demand (the whole store's code, only for the command that needs them)
    const settings = command.withSettings ? await (await import("./stored-settings")).storedSettings(args, io) : undefined;
    const session = openStoredPiSession(args.positionals[0] as string, args.options["data-dir"] as string | undefined);
    if (!session) return undefined;
    try {
      if (command.withSettings && settings) command.withSettings(session, args, io, settings);
      else command.on(session, args, io);
    } finally {
      session.close();
    }
    return 0;
  } catch (err) {
    return reportError(err, io);
  }
}
