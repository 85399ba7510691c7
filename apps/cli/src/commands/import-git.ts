/**
 * `bonsai import --git REPO [--json]`: the sessions of a repository's Entire checkpoint branch,
 * read through git without changing the repository (store src/entire/), each agent session one
 * Bonsai session linked to the commits that name its checkpoints. Again: only the checkpoints
 * added since are read, and the summary says how many. Ctrl-C stops between sessions.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { GitReadError, importGitRepository, type GitImportResult } from "@bonsai/store";
import type { ParsedArgs } from "../args";
import { UserError } from "../errors";
import { printJson, type Io } from "../output";
import { withCliStore } from "../store-db";

function summary(r: GitImportResult): string {
  const counts = new Map<string, number>();
  for (const s of r.sessions) counts.set(s.report.status, (counts.get(s.report.status) ?? 0) + 1);
  const sessions = [...counts].map(([s, n]) => `${n} ${s}`).join(", ") || "no new sessions";
  const read = r.checkpointsRead === r.checkpointsTotal ? `${r.checkpointsRead} checkpoints read` : `${r.checkpointsRead} new or changed checkpoints read (of ${r.checkpointsTotal})`;
  return `${r.repository} (${r.branchRef}): ${read}; sessions: ${sessions}; ${r.commitsLinked} commits newly linked${r.aborted ? " (stopped: interrupted)" : ""}`;
}

export async function importGit(args: ParsedArgs, io: Io, repo: string): Promise<number> {
  const dir = path.resolve(repo);
  if (!fs.existsSync(dir)) throw new UserError(`${repo}: no such folder`);
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once("SIGINT", onSigint);
  try {
    return await withCliStore(args, { create: true }, async (store) => {
      const showProgress = io.stderrIsTerminal?.() === true && !args.options.json;
      let result: GitImportResult;
      try {
        result = await importGitRepository(store, dir, {
          signal: controller.signal,
          onProgress: showProgress ? (p) => io.stderr(`\rreading ${p.phase}: ${p.done}/${p.total}\x1b[K`) : undefined,
        });
      } catch (err) {
        if (err instanceof GitReadError) throw new UserError(err.message);
        throw err;
      }
      if (showProgress) io.stderr("\r\x1b[K");
      if (args.options.json) printJson(io, result);
      else {
        for (const s of result.sessions) {
          const r = s.report;
          const to = r.sessionId ? ` -> ${r.sessionId}` : "";
          io.stdout(`${r.status.padEnd(10)} ${s.transcript} (${s.agent ?? "unknown agent"} ${s.agentSessionId})${to}: ${r.message}\n`);
        }
        for (const k of result.skipped) io.stdout(`skipped    ${k.path}: ${k.reason}\n`);
        io.stdout(`${summary(result)}\n`);
      }
      return result.aborted || result.sessions.some((s) => s.report.status === "failed") ? 1 : 0;
    });
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}
