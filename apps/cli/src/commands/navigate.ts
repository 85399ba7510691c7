/**
 * `bonsai navigate SESSION TARGET [--summarize] [--instructions TEXT] [--json]`: moves the leaf of a
 * stored session to TARGET; with --summarize the abandoned branch is summarized into a branch
 * summary attached at the destination (branch-summary.md §1).
 */
import { summaryOrigin, summaryOriginLabel } from "@bonsai/core";
import { BRANCH_MARKER_TYPE } from "@bonsai/engine";
import { withEngineSession } from "../engine-session";
import { printJson } from "../output";
import type { Command } from "./command";

export const navigateCommand: Command = {
  async run(args, io) {
    await withEngineSession(args, io, async ({ engine, store, sessionId }) => {
      const from = store.getLeaf(sessionId);
      const target = args.positionals[1] as string;
      const out = await engine.navigateTree(sessionId, target, { summarize: args.options.summarize === true, instructions: args.options.instructions as string | undefined });
      if (args.options.json) {
        printJson(io, { sessionId, fromLeafId: from, ...out });
        return;
      }
      const lines: string[] = [];
      if (out.cancelled) lines.push(out.aborted ? "Branch summarization cancelled; nothing changed." : "Navigation cancelled by a hook; nothing changed.");
      else if (from === out.leafId && !out.summaryEntry) lines.push(`Already at ${target}.`);
      else {
        const leaf = out.leafId === null ? undefined : store.getEntry(sessionId, out.leafId);
        const marker = leaf?.type === "custom" && leaf.customType === BRANCH_MARKER_TYPE ? leaf : undefined;
        const place = marker ? `${marker.parentId ?? "(before the first entry)"}, with entry ${marker.id} in the file so that the agent resumes there` : (out.leafId ?? "(before the first entry)");
        lines.push(`Moved the leaf of session ${sessionId} from ${from ?? "(root)"} to ${place}.`);
      }
      if (out.summaryEntry) lines.push(`Added branch summary ${out.summaryEntry.id} under ${out.summaryEntry.parentId ?? "(root)"}, written by ${summaryOriginLabel(summaryOrigin(out.summaryEntry))}:`, "", out.summaryEntry.summary);
      if (out.editorText !== undefined) lines.push("", "Text of the selected message (to edit and send again):", out.editorText);
      io.stdout(`${lines.join("\n")}\n`);
    }, args.options.summarize === true); // moving the leaf alone writes only to pi files (an entry the agent ignores)
  },
};
