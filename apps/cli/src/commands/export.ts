/**
 * `bonsai export SESSION [-o FILE] [--format jsonl|md] [--leaf ID]`: a stored session (id or unique
 * prefix) or a session file, as JSONL in the current format (pi / oh-my-pi resume it; pruned tool
 * outputs in the pruned form pi writes) or as Markdown of the path to the leaf. -o writes atomically.
 */
import { defaultLeafId, getPath, serializeSession } from "@bonsai/core";
import { renderMarkdown } from "@bonsai/store";
import { writeFileAtomic } from "../atomic-write";
import { UserError, describeFsError } from "../errors";
import { refuseSessionFileOutput } from "../output-guard";
import { loadSession, reportIssues, requireEntryId } from "../session-source";
import type { Command } from "./command";
import { exportSpec } from "./export.spec";

export const exportCommand: Command = {
  spec: exportSpec,
  async run(args, io) {
    const format = (args.options.format as string | undefined) ?? "jsonl";
    if (format !== "jsonl" && format !== "md") throw new UserError(`--format must be jsonl or md, got ${JSON.stringify(format)}`, 2);
    const session = await loadSession(args.positionals[0] as string);
    reportIssues(io, session);
    if (format === "jsonl" && args.options.leaf !== undefined) throw new UserError("--leaf applies to --format md only (JSONL exports every branch)", 2);
    let text: string;
    if (format === "jsonl") {
      text = session.stored ? session.stored.jsonl() : serializeSession(session.header, session.entries);
    } else {
      const leaf = requireEntryId(session, args.options.leaf as string | undefined) ?? (session.leafId === undefined ? defaultLeafId(session.entries) : session.leafId);
      text = renderMarkdown(session.header, session.title ?? null, getPath(session.index, leaf));
    }
    const out = args.options.output as string | undefined;
    if (out === undefined) {
      io.stdout(text);
      return;
    }
    refuseSessionFileOutput(out);
    try {
      writeFileAtomic(out, text);
    } catch (err) {
      throw new UserError(`cannot write ${out}: ${describeFsError(err)}`);
    }
    io.stderr(`bonsai: wrote ${out} (${session.entries.length} entries, ${format})\n`);
  },
};
