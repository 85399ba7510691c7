/**
 * Entry point of the bundled CLI (apps/cli/dist/bonsai.mjs): runs the command line and exits.
 */
import { runCli } from "./cli";
import { processIo } from "./output";

process.exitCode = await runCli(process.argv.slice(2), processIo);
