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
      printJson(io, { sessionId, dryRun: false, prunedCount: out.prunedCount, tokensSaved: out.tokensSaved, prunedEntryIds: out.entryIds });
      return;
    }
    const list = out.entryIds.map((id) => `  ${id}\n`).join("");
    if (out.prunedCount === 0) io.stdout(`Nothing pruned in session ${sessionId}: old tool outputs would not save at least the minimum.\n`);
    else io.stdout(`Pruned ${out.prunedCount} old tool outputs of session ${sessionId}, saving about ${out.tokensSaved} tokens (originals kept: restorable).\n${list}`);
  });
}
