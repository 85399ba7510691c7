/**
 * `bonsai compact SESSION [--instructions TEXT] [--dry-run] [--model ID] [--base-url URL] [--offline] [--json]`:
 * compacts a stored session (or a session file, imported first) with the configured model, or the
 * offline summarizer, and prints what was summarized and the summary.
 */
import { summaryOrigin, type CompactionEntry } from "@bonsai/core";
import { withEngineSession } from "../engine-session";
import { printJson, type Io } from "../output";
import type { Command } from "./command";

function describeSummarizer(details: unknown, model: string, offline: boolean): string {
  return summaryOrigin({ details }) === "offline" || offline ? "the offline summarizer" : model;
}

export const compactCommand: Command = {
  async run(args, io: Io) {
    await withEngineSession(args, io, async ({ engine, sessionId }) => {
      engine.on("compaction_progress", (p) => {
        if (!args.options.json) io.stderr(`bonsai: ${p.stage}${p.summarizer ? ` (${p.summarizer})` : ""}…\n`);
      });
      const outcome = await engine.compact(sessionId, { instructions: args.options.instructions as string | undefined, dryRun: args.options["dry-run"] === true });
      if (args.options.json) {
        printJson(io, { sessionId, dryRun: outcome.dryRun, entryId: outcome.entry?.id ?? null, fromExtension: outcome.fromExtension, result: outcome.result });
        return;
      }
      const r = outcome.result;
      const entry = outcome.entry as CompactionEntry | undefined;
      const by = outcome.fromExtension ? "a hook" : describeSummarizer(r.details, engine.getSettings().model.model, !engine.modelConfigured);
      const head = outcome.dryRun
        ? `Dry run: session ${sessionId} would be compacted (nothing written). Summary by ${by}:`
        : `Compacted session ${sessionId}: entry ${entry?.id} keeps the history from ${r.firstKeptEntryId} (${r.tokensBefore} tokens before). Summary by ${by}:`;
      io.stdout(`${head}\n\n${r.summary}\n${r.shortSummary ? `\nShort summary: ${r.shortSummary}\n` : ""}`);
    });
  },
};
