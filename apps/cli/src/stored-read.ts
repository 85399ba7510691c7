/**
 * The read commands on a stored session id, as a bundle of their own (dist/stored-read.mjs,
 * scripts/build.mjs): `context`, `plan`, `prune --dry-run` and `branch` on a pi session in a
 * database that needs nothing but reading. Their whole start is one module of what they run (the
 * command's answer, the store's reader, the core functions they call), instead of the split
 * bundle's chunks of code shared with every other command. The answers are the commands' own
 * (commands/<name>.ts, on the session stored-session.ts opens), with the command line's error
 * policy; anything else (a Claude Code or Codex session, a database to migrate or recover) is given
 * back to the command's usual path.
 */
import { parseArgs, type CommandSpec, type ParsedArgs } from "./args";
import { branchOn, requireTarget } from "./commands/branch";
import { branchSpec } from "./commands/branch.spec";
import type { SessionCommand } from "./commands/command";
import { contextOn } from "./commands/context";
import { contextSpec } from "./commands/context.spec";
import { planOn } from "./commands/plan";
import { planSpec } from "./commands/plan.spec";
import { pruneDryRunOn } from "./commands/prune";
import { pruneSpec } from "./commands/prune.spec";
import { reportError } from "./errors";
import type { Io } from "./output";
import { isStoredRead, type StoredReadCommand } from "./session-argument";
import { openStoredPiSession } from "./stored-session";

export { lazyProcessIo } from "./output";

const COMMANDS: Record<StoredReadCommand, { spec: CommandSpec; check?: (args: ParsedArgs) => unknown; on: SessionCommand }> = {
  context: { spec: contextSpec, on: contextOn },
  plan: { spec: planSpec, on: planOn },
  prune: { spec: pruneSpec, on: pruneDryRunOn },
  branch: { spec: branchSpec, check: requireTarget, on: branchOn },
};

/**
 * A whole command line (the arguments after `bonsai`), for bin/bonsai.mjs to try before it loads
 * the command line's bundle: the exit status of a read command on a stored session, or undefined for
 * anything else (another command, a file, help, a mistake in the arguments, a session this bundle
 * gives back), which the command line then runs and reports as usual.
 */
export async function runStoredReadCommandLine(argv: readonly string[], io: Io): Promise<number | undefined> {
  const [name, ...rest] = argv;
  if (name === undefined || !Object.hasOwn(COMMANDS, name)) return undefined;
  let args: ParsedArgs;
  try {
    args = parseArgs(rest, COMMANDS[name as StoredReadCommand].spec);
  } catch {
    return undefined;
  }
  if (args.help || !isStoredRead(name, args)) return undefined;
  return runStoredRead(name, args, io);
}

/**
 * Runs the read command `name` on the stored session its SESSION argument names: the exit status,
 * or undefined when this is not a session it answers (run the command as usual then).
 */
export async function runStoredRead(name: StoredReadCommand, args: ParsedArgs, io: Io): Promise<number | undefined> {
  const command = COMMANDS[name];
  try {
    command.check?.(args);
    const session = openStoredPiSession(args.positionals[0] as string, args.options["data-dir"] as string | undefined);
    if (!session) return undefined;
    try {
      command.on(session, args, io);
    } finally {
      session.close();
    }
    return 0;
  } catch (err) {
    return reportError(err, io);
  }
}
