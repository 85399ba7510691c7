/**
 * `bonsai export SESSION [-o FILE] [--format jsonl|md|pi|html] [--leaf ID]`: a stored session (id or
 * unique prefix) or a session file of any agent, as
 * - jsonl: pi / oh-my-pi sessions in the current format (pruned tool outputs in the pruned form pi
 *   writes); Claude Code and Codex files as the agent's own file, byte for byte;
 * - md: Markdown of the path to the leaf;
 * - pi: "Continue in pi", a pi v3 session of the path to the leaf that pi opens and resumes;
 * - html: one self-contained page (tree, transcript, context chart), no network requests.
 * -o writes atomically.
 */
import { randomUUID } from "node:crypto";
import { defaultLeafId, getPath, serializeSession } from "@bonsai/core";
import { originalText, renderHtml, toPiSession, type PiExport } from "@bonsai/formats";
import { renderMarkdown } from "@bonsai/store";
import { writeFileAtomic } from "../atomic-write";
import { UserError, describeFsError } from "../errors";
import { refuseSessionFileOutput } from "../output-guard";
import { loadSession, readSessionOf, reportIssues, requireEntryId, type LoadedSession } from "../session-source";
import type { Command } from "./command";
import { exportSpec } from "./export.spec";

const FORMATS = ["jsonl", "md", "pi", "html"] as const;
type Format = (typeof FORMATS)[number];

function jsonl(session: LoadedSession): string {
  if (session.stored) return session.stored.jsonl();
  if (session.foreign) return originalText(session.foreign);
  return serializeSession(session.header, session.entries);
}

/** What the pi export left out, as a clause for the summary line ("" when nothing). */
function omittedNote(omitted: PiExport["omitted"]): string {
  const parts: string[] = [];
  if (omitted.developerMessages > 0) parts.push(`${omitted.developerMessages} Codex developer instructions`);
  if (omitted.orphanToolResults > 0) parts.push(`${omitted.orphanToolResults} tool results whose call is not in the file`);
  return parts.length > 0 ? `; left out: ${parts.join(", ")}` : "";
}

export const exportCommand: Command = {
  spec: exportSpec,
  async run(args, io) {
    const format = ((args.options.format as string | undefined) ?? "jsonl") as Format;
    if (!FORMATS.includes(format)) throw new UserError(`--format must be jsonl, md, pi or html, got ${JSON.stringify(format)}`, 2);
    const session = await loadSession(args.positionals[0] as string);
    reportIssues(io, session);
    if (format === "jsonl" && args.options.leaf !== undefined) throw new UserError("--leaf applies to --format md, pi and html (JSONL exports every branch)", 2);
    const leaf = requireEntryId(session, args.options.leaf as string | undefined) ?? (session.leafId === undefined ? defaultLeafId(session.entries) : session.leafId);
    let text: string;
    let summary = `${session.entries.length} entries, ${format}`;
    switch (format) {
      case "jsonl":
        text = jsonl(session);
        break;
      case "md":
        text = renderMarkdown(session.header, session.title ?? null, getPath(session.index, leaf));
        break;
      case "pi": {
        const parentSession = session.source.kind === "file" ? session.source.path : (session.stored?.sourcePath ?? session.source.sessionId);
        const exported = toPiSession(readSessionOf(session), { sessionId: randomUUID(), now: new Date().toISOString(), leafId: leaf, parentSession });
        text = exported.text;
        summary = `${exported.entries.length} entries, a pi session of the path to ${leaf ?? "(none)"}${omittedNote(exported.omitted)}`;
        break;
      }
      case "html":
        text = renderHtml(readSessionOf(session), { leafId: leaf });
        summary = `${session.entries.length} entries, html`;
        break;
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
    io.stderr(`bonsai: wrote ${out} (${summary})\n`);
  },
};
