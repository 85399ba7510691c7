/**
 * `bonsai migrate SESSION [-o OUT] [--json]`: the session in the current format version (v3).
 * Without -o the JSONL goes to stdout; with -o it replaces OUT atomically. The source is never changed
 * unless OUT names it.
 */
import { serializeSession, sessionLines } from "@bonsai/core";
import * as path from "node:path";
import { writeFileAtomic } from "../atomic-write";
import { UserError, describeFsError } from "../errors";
import { refuseSessionFileOutput } from "../output-guard";
import { printJson, warn } from "../output";
import { reportIssues, withSessionOf } from "../session-source";
import type { Command } from "./command";

export const migrateCommand: Command = {
  async run(args, io) {
    await withSessionOf(args, (session) => {
      reportIssues(io, session);
      if (session.issues.length > 0) warn(io, `${session.issues.length} unreadable line(s) of ${session.label} are not in the migrated output`);
      const out = args.options.output as string | undefined;
      const entries = session.entries();
      if (out === undefined) {
        if (args.options.json) throw new UserError("--json needs -o OUT (without -o the migrated session itself goes to stdout)", 2);
        io.stdout(serializeSession(session.header, entries));
        return;
      }
      refuseSessionFileOutput(out);
      try {
        writeFileAtomic(out, sessionLines(session.header, entries));
      } catch (err) {
        throw new UserError(`cannot write ${out}: ${describeFsError(err)}`);
      }
      const summary = {
        output: path.resolve(out),
        migrated: session.migration.migrated,
        fromVersion: session.migration.fromVersion,
        toVersion: session.migration.toVersion,
        entries: entries.length,
        skippedLines: session.issues.length,
      };
      if (args.options.json) printJson(io, summary);
      else {
        const what = summary.migrated ? `migrated v${summary.fromVersion} -> v${summary.toVersion}` : `already v${summary.toVersion}, copied unchanged`;
        io.stdout(`${out}: ${what}, ${summary.entries} entries\n`);
      }
    });
  },
};
