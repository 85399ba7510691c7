/**
 * `bonsai prompt SESSION TEXT [--model ID] [--base-url URL] [--json]`: sends TEXT with the session's
 * context to the configured model, streams the reply, appends both messages, then prunes and runs
 * the automatic compaction checks (reported on stderr).
 */
import { withEngineSession } from "../engine-session";
import { UserError } from "../errors";
import { printJson } from "../output";
import type { Command } from "./command";

export const promptCommand: Command = {
  async run(args, io) {
    const text = args.positionals[1] as string;
    if (text.trim() === "") throw new UserError("the message is empty");
    return withEngineSession(args, io, async ({ engine, sessionId }) => {
      const json = args.options.json === true;
      if (!json) engine.on("turn_delta", ({ delta }) => io.stdout(delta));
      engine.on("auto_compaction_start", ({ reason }) => io.stderr(`\nbonsai: auto-compacting (${reason})…\n`));
      engine.on("auto_compaction_end", (e) =>
        io.stderr(e.result ? `bonsai: compacted (${e.reason})${e.willRetry ? ", retrying the turn" : ""}\n` : e.aborted ? "bonsai: auto-compaction cancelled\n" : `bonsai: ${e.errorMessage ?? "nothing to compact"}\n`),
      );
      engine.on("auto_retry_start", (e) => io.stderr(`bonsai: ${e.errorMessage}; retry ${e.attempt}/${e.maxAttempts} in ${e.delayMs} ms\n`));
      engine.on("pruning_done", (e) => io.stderr(`bonsai: pruned ${e.prunedCount} old tool outputs (${e.tokensSaved} tokens)\n`));
      const out = await engine.prompt(sessionId, text);
      if (json) printJson(io, { sessionId, ...out });
      else io.stdout(`\n`);
      if (out.message.stopReason === "error") {
        io.stderr(`bonsai: the model failed: ${out.message.errorMessage ?? "unknown error"}\n`);
        return 1;
      }
      return 0;
    });
  },
};
