/**
 * The warm-ups the build runs before it writes a bundle's code cache (bin/cached-bundle.cjs
 * `--warm-up`, scripts/build.mjs): a command line run with its output thrown away, so that the
 * functions it runs are compiled when the cache is made.
 */
import type { Io } from "./output";

/** Runs `argv` with `run`, its output dropped; throws unless it ends with status 0. */
export async function runForWarmUp(run: (argv: readonly string[], io: Io) => Promise<number | undefined>, argv: readonly string[]): Promise<void> {
  let errors = "";
  const status = await run(argv, { stdout: () => undefined, stderr: (text) => void (errors += text) });
  if (status !== 0) throw new Error(`the warm-up \`bonsai ${argv.join(" ")}\` ended with ${String(status)}${errors ? `: ${errors.trim()}` : " (not answered)"}`);
}
