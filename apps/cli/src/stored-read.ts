/**
 * The read commands on a stored session id, as a bundle of their own (dist/stored-read.cjs,
 * scripts/build.mjs, loaded with its code cache by bin/cached-bundle.cjs): `context`, `plan`,
 * `prune --dry-run` and `branch` on a pi session in a database that needs nothing but reading.
 * Their whole start is one module of what they run (the command's answer, the store's reader, the
 * core functions they call), instead of the split bundle's chunks of code shared with every other
 * command. The answers are the commands' own (commands/<name>.ts, on the session stored-session.ts
 * opens), with the command line's error policy; anything else (a Claude Code or Codex session, a
 * database to migrate or recover) is given back to the command's usual path.
 */
import { parseArgs, type CommandSpec, type ParsedArgs } from "./args";
import { branchOn, requireTarget } from "./commands/branch";
import { branchSpec } from "./commands/branch.args";
import type { SessionCommand } from "./commands/command";
import { contextOn } from "./commands/context";
import { contextSpec } from "./commands/context.args";
import { planOn } from "./commands/plan";
import { planSpec } from "./commands/plan.args";
import { pruneDryRunOn } from "./commands/prune";
import { pruneSpec } from "./commands/prune.args";
import { reportError } from "./errors";
import type { Io } from "./output";
import { runForWarmUp } from "./warm-up";
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
 * A whole command line (the arguments after `bonsai`), for bin/bonsai.cjs to try before it loads
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

/** the reads the build's warm-up runs on a stored session (its id is the one argument) */
const WARM_UP_READS: readonly (readonly string[])[] = [["context", "--json"], ["plan", "--json"], ["prune", "--dry-run", "--json"]];

/**
 * What the build runs in the process that writes this bundle's code cache (bin/cached-bundle.cjs,
 * `--warm-up SESSION`): the reads on a session stored by an earlier process, their output thrown
 * away, so that the cache holds the functions a stored read runs. Throws when one does not answer.
 */
export async function warmUp(argv: readonly string[]): Promise<void> {
  const [session] = argv;
  if (argv.length !== 1 || session === undefined) throw new Error("the stored reads' warm-up takes one argument: a stored session's id");
  for (const [name, ...options] of WARM_UP_READS) await runForWarmUp(runStoredReadCommandLine, [name as string, session, ...options]);
}
