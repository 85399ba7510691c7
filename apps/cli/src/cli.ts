/**
 * The `bonsai` command line: dispatch to the command modules of commands/index.ts, help texts, and
 * the error policy (user mistakes: one line on stderr, non-zero exit, no stack trace).
 */
import { formatCommandHelp, parseArgs, usageLine } from "./args";
import { COMMANDS } from "./commands/index";
import type { CommandEntry } from "./commands/command";
import { reportError, UsageError } from "./errors";
import type { Io } from "./output";
import { isStoredRead } from "./session-argument";
import { version } from "../package.json";

/** The registry line of a command (its spec; `load()` imports the implementation). */
export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.spec.name === name);
}

export function formatMainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.spec.name.length));
  return [
    "Usage: bonsai <command> [arguments] [--json]",
    "",
    "See and shape AI coding-agent sessions. Bonsai reads the session files of pi / oh-my-pi",
    "(changes are written back to them), Claude Code and Codex (read only; `bonsai export --format pi`",
    "makes a pi copy that takes changes), each recognised from its content.",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.spec.name.padEnd(width)}  ${usageLine(c.spec).slice("bonsai ".length + c.spec.name.length + 1)}`),
    "",
    "Run `bonsai <command> --help` for a command's options, `bonsai --version` for the version.",
    "",
  ].join("\n");
}

/** Runs one command line; returns the exit status. Never throws. */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  try {
    const [name, ...rest] = argv;
    if (name === undefined) throw new UsageError("missing command (run `bonsai --help` for the list)");
    if (name === "--help" || name === "-h" || name === "help") {
      const target = name === "help" && rest[0] ? findCommand(rest[0]) : undefined;
      io.stdout(target ? formatCommandHelp(target.spec) : formatMainHelp());
      return 0;
    }
    if (name === "--version" || name === "-v") {
      io.stdout(`bonsai ${version}\n`);
      return 0;
    }
    const command = findCommand(name);
    if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)} (run \`bonsai --help\` for the list)`);
    const args = parseArgs(rest, command.spec);
    if (args.help) {
      io.stdout(formatCommandHelp(command.spec));
      return 0;
    }
    // a read command on a team archive: its own module (the archive's client), never the store
    if (typeof args.options.archive === "string") return await (await import("./archive-read")).runArchiveRead(command, args, io);
    if (args.options.project !== undefined && name !== "push") throw new UsageError("--project names a project of a team archive: use it with --archive URL");
    if (args.options.limit !== undefined && name === "ls") throw new UsageError("--limit is for a team archive's list: use it with --archive URL");
    // a stored session id given to a read command: its own small chunk (stored-read.ts), which
    // answers a pi session in a database that needs nothing but reading, and gives back the others
    if (isStoredRead(name, args)) {
      const status = await (await import("./stored-read")).runStoredRead(name, args, io);
      if (status !== undefined) return status;
    }
    // the implementation (and what it imports: engine, store, server...) is loaded only now
    const implementation = await command.load();
    return (await implementation.run(args, io)) ?? 0;
  } catch (err) {
    return reportError(err, io);
  }
}
