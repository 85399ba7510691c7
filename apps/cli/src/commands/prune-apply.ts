/**
 * The applying mode of `bonsai prune SESSION` for stored sessions: prunes old tool outputs through
 * the engine and the store (originals kept, restorable; the source file is rewritten in the pruned
 * form, as pi writes it). Dry runs (and session files, never modified) take the read path of prune.ts.
 */
import type { ParsedArgs } from "../args";
import { withEngineSession } from "../engine-session";
import { printJson, type Io } from "../output";

export async function applyPruneToStoredSession(args: ParsedArgs, io: Io): Promise<void> {
  await withEngineSession(args, io, async ({ engine, sessionId }) => {
    const out = await engine.pruneToolOutputs(sessionId);
    if (args.options.json) {
      printJson(io, { sessionId, dryRun: false, prunedCount: out.prunedCount, tokensSaved: out.tokensSaved, stopsSeeingTokens: out.tokensSavedInContext, prunedEntryIds: out.entryIds });
      return;
    }
    const list = out.entryIds.map((id) => `  ${id}\n`).join("");
    if (out.prunedCount === 0) io.stdout(`Nothing pruned in session ${sessionId}: old tool outputs would not save at least the minimum.\n`);
    else {
      const n = (v: number) => v.toLocaleString("en-US");
      const little = out.tokensSavedInContext < engine.pruneConfig().minimumSavings ? " Little gain: most of these outputs were already summarized away by a compaction." : "";
      io.stdout(
        `Pruned ${out.prunedCount} old tool outputs of session ${sessionId}: the model stops seeing about ${n(out.tokensSavedInContext)} tokens (the outputs replaced held ${n(out.tokensSaved)}; originals kept: restorable).${little}\n${list}`,
      );
    }
  });
}
