/**
 * Entry point of the bundled CLI (apps/cli/dist/bonsai.mjs): runs the command line and exits.
 */
import { runCli } from "./cli";
import { processIo } from "./output";

// A closed pipe (`bonsai context f | head`) is not an error worth a message.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
}

process.exitCode = await runCli(process.argv.slice(2), processIo);
