/**
 * `bonsai import` as a bundle of its own (dist/import.cjs, scripts/build.mjs), for bin/bonsai.cjs to
 * run instead of the command line's split bundle: one module of what an import runs (the command,
 * the store, the readers) instead of the command line's start and the chunks the split bundle
 * shares among all commands. A re-import that finds a few lines appended does little else than
 * start, so its start is most of its cost (docs/PERFORMANCE.md). The command is the command line's
 * own (commands/import.ts), with its error policy; help and mistakes in the arguments are given
 * back to the command line, which answers them as usual.
 */
import { parseArgs, type ParsedArgs } from "./args";
import { importCommand } from "./commands/import";
import { importSpec } from "./commands/import.args";
import { reportError } from "./errors";
import type { Io } from "./output";
import { runForWarmUp } from "./warm-up";

export { lazyProcessIo } from "./output";

/**
 * A whole command line (the arguments after `bonsai`): the exit status of an import, or undefined
 * for anything else (another command, help, a mistake in the arguments) for the command line.
 */
export async function runImportCommandLine(argv: readonly string[], io: Io): Promise<number | undefined> {
  const [name, ...rest] = argv;
  if (name !== importSpec.name) return undefined;
  let args: ParsedArgs;
  try {
    args = parseArgs(rest, importSpec);
  } catch {
    return undefined;
  }
  if (args.help) return undefined;
  try {
    return (await importCommand.run(args, io)) ?? 0;
  } catch (err) {
    return reportError(err, io);
  }
}

/**
 * What the build runs in the process that writes this bundle's code cache (bin/cached-bundle.cjs,
 * scripts/build.mjs): an import, its output dropped, so that the functions it runs are compiled
 * when the cache is made and a start reads them from the cache instead of compiling them at their
 * first call. Throws when the import does not succeed.
 */
export async function warmUp(argv: readonly string[]): Promise<void> {
  await runForWarmUp(runImportCommandLine, argv);
}
