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
import { renderSessionMarkdown, toPiSession, type PiExport } from "@bonsai/formats";
import { renderHtml } from "@bonsai/formats/html";
import { writeFileAtomic } from "../atomic-write";
import { UserError, describeFsError } from "../errors";
import { refuseSessionFileOutput } from "../output-guard";
import { readSessionOf } from "../session-file";
import { reportIssues, resolveLeafId, withSessionOf, type LoadedSession } from "../session-source";
import type { Command } from "./command";

const FORMATS = ["jsonl", "md", "pi", "html"] as const;
type Format = (typeof FORMATS)[number];

/** What the pi export left out, as a clause for the summary line ("" when nothing). */
function omittedNote(omitted: PiExport["omitted"]): string {
  const parts: string[] = [];
  if (omitted.developerMessages > 0) parts.push(`${omitted.developerMessages} Codex developer instructions`);
  if (omitted.orphanToolResults > 0) parts.push(`${omitted.orphanToolResults} tool results whose call is not in the file`);
  return parts.length > 0 ? `; left out: ${parts.join(", ")}` : "";
}

/** The text of the export and the summary line -o prints. */
function render(session: LoadedSession, format: Format, leaf: string | null): { text: string; summary: string } {
  switch (format) {
    case "jsonl":
      return { text: session.jsonl(), summary: `${session.entryCount} entries, jsonl` };
    case "md":
      return { text: renderSessionMarkdown(session.header, session.title, session.path(leaf)), summary: `${session.entryCount} entries, md` };
    case "pi": {
      const parentSession = session.sourcePath ?? (session.source.kind === "stored" ? session.source.sessionId : null);
      const exported = toPiSession(readSessionOf(session), { sessionId: randomUUID(), now: new Date().toISOString(), leafId: leaf, parentSession: parentSession ?? undefined });
      return { text: exported.text, summary: `${exported.entries.length} entries, a pi session of the path to ${leaf ?? "(none)"}${omittedNote(exported.omitted)}` };
    }
    case "html":
      return { text: renderHtml(readSessionOf(session), { leafId: leaf }), summary: `${session.entryCount} entries, html` };
  }
}

export const exportCommand: Command = {
  async run(args, io) {
    const format = ((args.options.format as string | undefined) ?? "jsonl") as Format;
    if (!FORMATS.includes(format)) throw new UserError(`--format must be jsonl, md, pi or html, got ${JSON.stringify(format)}`, 2);
    await withSessionOf(args, (session) => {
      reportIssues(io, session);
      if (format === "jsonl" && args.options.leaf !== undefined) throw new UserError("--leaf applies to --format md, pi and html (JSONL exports every branch)", 2);
      const { text, summary } = render(session, format, resolveLeafId(session, args.options.leaf as string | undefined));
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
    });
  },
};
