/** The shape of one `bonsai <name>` command module. */
import type { CommandSpec, OptionSpec, ParsedArgs, PositionalSpec } from "../args";
import type { Io } from "../output";
import type { LoadedSession } from "../session-source";

/**
 * A command's implementation. Its spec stays in the registry line (index.ts): an implementation
 * that imported it would make each spec a chunk of its own, shared by the entry and the command,
 * and every start would load them all one by one.
 */
export interface Command {
  /** returns the exit status (0 when omitted); throws UserError for user mistakes */
  run(args: ParsedArgs, io: Io): Promise<number | void> | number | void;
}

/**
 * A read command's work on a loaded session: what its `run` does with the session withSession
 * loads, and what stored-read.ts runs on a stored session it opened itself.
 */
export type SessionCommand = (session: LoadedSession, args: ParsedArgs, io: Io) => void;

/**
 * One line of the registry (index.ts): the spec, cheap to load (help, argument parsing), and the
 * implementation, imported only when the command runs.
 */
export interface CommandEntry {
  spec: CommandSpec;
  load(): Promise<Command>;
}

/** The `--json` option every read command offers. */
export const JSON_OPTION = { name: "json", type: "boolean", description: "print JSON instead of text" } as const;

/** The SESSION argument of the read-only commands on a file. */
export const FILE_POSITIONAL: PositionalSpec = { name: "SESSION", description: "a session JSONL file (any format version; read only)" };

export const SESSION_POSITIONAL: PositionalSpec = { name: "SESSION", description: "a stored session id (or unique prefix), or a session file (imported first)" };

export const DATA_DIR_OPTION: OptionSpec = { name: "data-dir", type: "string", valueName: "DIR", description: "Bonsai's data folder (default: the desktop app's)" };

/** Read commands on a team archive instead of the local store (token from BONSAI_TOKEN). */
export const ARCHIVE_OPTION: OptionSpec = { name: "archive", type: "string", valueName: "URL", description: "read a team archive instead of the local store (token from BONSAI_TOKEN)" };

/** With --archive: the archive project to read (a session id two projects hold names one session with it). */
export const ARCHIVE_PROJECT_OPTION: OptionSpec = { name: "project", type: "string", valueName: "NAME", description: "with --archive: only this archive project (needed when two of your projects hold the same session id)" };

export const MODEL_OPTIONS: OptionSpec[] = [
  { name: "model", type: "string", valueName: "ID", description: "model id for this run (default: settings model.model)" },
  { name: "base-url", type: "string", valueName: "URL", description: "OpenAI-compatible endpoint for this run, e.g. http://127.0.0.1:8080/v1" },
  { name: "offline", type: "boolean", description: "use the offline extractive summarizer, no model" },
  DATA_DIR_OPTION,
];
