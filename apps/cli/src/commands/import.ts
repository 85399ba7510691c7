/**
 * `bonsai import [PATH...] [--json]`: imports session files and folders (recursively) into the
 * Bonsai database — pi / oh-my-pi, Claude Code and Codex files, told apart by their content. Without
 * a path: ~/.pi/agent/sessions, ~/.omp/agent/sessions, Claude Code's projects folder, Codex's
 * sessions folder, BONSAI_SESSIONS_DIRS and the settings' sessionDirs (store defaultSessionDirs). Unchanged files are skipped, grown files read from where the last
 * import stopped. Source files are never modified. Ctrl-C stops after the current file. While another
 * process writes the database (another import, the app) it says so once and waits for it.
 * `--git REPO`: a repository's Entire checkpoint branch instead (import-git.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { defaultSessionDirs, type ImportReport } from "@bonsai/store";
import { UserError } from "../errors";
import { printJson, warn, type Io } from "../output";
import { withCliStore } from "../store-db";
import type { Command } from "./command";
import { importGit } from "./import-git";

function describe(r: ImportReport): string {
  const name = r.sourcePath;
  switch (r.status) {
    case "imported":
    case "appended":
    case "reimported":
      return `${r.status.padEnd(10)} ${name} -> ${r.sessionId}: ${r.message}`;
    case "unchanged":
      return `unchanged  ${name}: ${r.message}`;
    default:
      return `${r.status.padEnd(10)} ${name}: ${r.message}`;
  }
}

function printIssues(io: Io, r: ImportReport): void {
  const shown = r.issues.filter((i) => i.kind !== "rewritten").slice(0, 5);
  for (const i of shown) warn(io, `${r.sourcePath}${i.line > 0 ? ` line ${i.line}` : ""}: ${i.message}`);
  const more = r.issues.length - shown.length;
  if (more > 0) warn(io, `${r.sourcePath}: ${more} more issues (see --json)`);
}

export const importCommand: Command = {
  async run(args, io) {
    if (typeof args.options.git === "string") {
      if (args.positionals.length > 0) throw new UserError("give either --git REPO or session PATHs, not both");
      return importGit(args, io, args.options.git);
    }
    const given = args.positionals;
    for (const p of given) if (!fs.existsSync(p)) throw new UserError(`${p}: no such file or directory`);
    const controller = new AbortController();
    const onSigint = (): void => controller.abort();
    process.once("SIGINT", onSigint);
    try {
      return await withCliStore(args, { create: true }, async (store) => {
        let paths = given.map((p) => path.resolve(p));
        if (paths.length === 0) {
          const settings = store.getSettingsJson() as { sessionDirs?: unknown } | undefined;
          const extra = Array.isArray(settings?.sessionDirs) ? settings.sessionDirs.filter((d): d is string => typeof d === "string") : [];
          paths = defaultSessionDirs(extra).filter((d) => fs.existsSync(d));
          if (paths.length === 0) throw new UserError(`no session folders found (looked in ${defaultSessionDirs(extra).join(", ")}); give a PATH`);
        }
        // progress on a terminal only (a line rewritten in place); pipes and --json stay clean
        const showProgress = io.stderrIsTerminal?.() === true && !args.options.json;
        const result = await store.importPaths(paths, {
          signal: controller.signal,
          // another process writing the database (another import, the app) for longer than SQLite's
          // busy timeout: said once, on a line of its own, and waited for as long as it writes
          onWaitForWriter: (file) => io.stderr(`${showProgress ? "\r\x1b[K" : ""}bonsai: waiting for another Bonsai process writing the database to finish (${path.basename(file)} next; Ctrl-C stops)…\n`),
          onProgress: showProgress
            ? (p) => io.stderr(`\rimporting ${p.filesDone}/${p.filesTotal} files, ${(p.bytesDone / 1e6).toFixed(1)}/${(p.bytesTotal / 1e6).toFixed(1)} MB\x1b[K`)
            : undefined,
        });
        if (showProgress) io.stderr("\r\x1b[K");
        const explicitFiles = new Set(paths.filter((p) => fs.statSync(p).isFile()));
        if (args.options.json) printJson(io, result);
        else {
          for (const r of result.reports) {
            io.stdout(`${describe(r)}\n`);
            if (r.status !== "not-a-session" && r.status !== "failed") printIssues(io, r);
          }
          const counts = new Map<string, number>();
          for (const r of result.reports) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
          const summary = [...counts].map(([s, n]) => `${n} ${s}`).join(", ") || "no session files found";
          io.stdout(`${result.filesTotal} files: ${summary}${result.aborted ? " (stopped: interrupted)" : ""}\n`);
        }
        const failedExplicit = result.reports.filter((r) => explicitFiles.has(r.sourcePath) && (r.status === "failed" || r.status === "not-a-session"));
        if (failedExplicit.length > 0 && !args.options.json) {
          throw new UserError(failedExplicit.length === 1 ? `${failedExplicit[0]!.sourcePath}: ${failedExplicit[0]!.message}` : `${failedExplicit.length} files could not be imported`);
        }
        return failedExplicit.length > 0 || result.aborted ? 1 : 0;
      });
    } finally {
      process.removeListener("SIGINT", onSigint);
    }
  },
};
