/**
 * `bonsai push [SESSION… | --all] --to URL --project NAME [--dry-run] [--watch]`: sends stored
 * sessions to a team archive, only the entries it lacks, with secrets redacted first (secretlint's
 * recommended preset, Bonsai's own rules and the setting team.redactPatterns; docs/TEAM.md). The
 * token comes from BONSAI_TOKEN, never the command line. A push reads sessions and never changes
 * them; --watch takes in what agents appended to their files between rounds, as the app's follower
 * does.
 */
import { ArchiveClient, ArchiveError, DEFAULT_REDACTION_RULES, extraRules, makeRedactor, pushSession, storePushSource, type Redactor, type SessionPushReport } from "@bonsai/team";
import { loadSettings } from "@bonsai/core";
import type { SqliteSessionStore } from "@bonsai/store";
import type { ParsedArgs } from "../args";
import { UserError, UsageError } from "../errors";
import { printJson, type Io } from "../output";
import { withCliStore } from "../store-db";
import type { Command } from "./command";

function redactorFor(store: SqliteSessionStore): Redactor {
  const { settings, errors } = loadSettings(store.getSettingsJson());
  // a pattern that does not compile is refused: pushing with less redaction than asked for is not an option
  const bad = errors.find((e) => e.field.startsWith("team."));
  if (bad) throw new UserError(`${bad.message}; fix it with "bonsai config" or in Preferences before pushing`);
  return makeRedactor([...DEFAULT_REDACTION_RULES, ...extraRules(settings.team.redactPatterns)]);
}

function sessionsToPush(store: SqliteSessionStore, args: ParsedArgs): string[] {
  if (args.options.all) {
    if (args.positionals.length > 0) throw new UsageError("give session ids or --all, not both");
    return store.listSessions().map((s) => s.id);
  }
  if (args.positionals.length === 0) throw new UsageError("name the sessions to push, or pass --all");
  return args.positionals.map((id) => store.resolveSessionId(id));
}

/** One line per session; the redacted part names each kind taken out and how often (what the archive holds as markers). */
function describe(report: SessionPushReport, dryRun: boolean): string {
  const total = report.redacted.reduce((sum, r) => sum + r.count, 0);
  const kinds = report.redacted.map((r) => `${r.rule} x${r.count}`).join(", ");
  const verb = dryRun ? "would send" : "sent";
  const redacted = total === 0 ? "" : `; ${dryRun ? "would redact" : "redacted"} ${total} secret${total === 1 ? "" : "s"}: ${kinds}`;
  return `${report.sessionId}  archive had ${report.had}, ${verb} ${report.sent}${redacted}\n`;
}

async function round(store: SqliteSessionStore, ids: readonly string[], client: ArchiveClient, args: ParsedArgs, io: Io, quiet: boolean, refused: Set<string>): Promise<SessionPushReport[]> {
  const redactor = redactorFor(store);
  const dryRun = args.options["dry-run"] === true;
  const reports: SessionPushReport[] = [];
  for (const sessionId of ids) {
    let report: SessionPushReport;
    try {
      report = await pushSession(storePushSource(store), sessionId, {
        client,
        project: args.options.project as string,
        dryRun,
        redactor,
        onProgress: (p) => {
          if (p.total >= 2000) io.stderr(`${sessionId}: ${p.sent}/${p.total}\n`);
        },
      });
    } catch (error) {
      // a session the archive refuses (a duplicated entry id, a bad header) is named in one line; the others are pushed
      if (!(error instanceof ArchiveError) || error.code !== "bad-request") throw error;
      io.stderr(`bonsai: ${sessionId} was not pushed: ${error.message}\n`);
      refused.add(sessionId);
      continue;
    }
    reports.push(report);
    if (!args.options.json && !(quiet && report.sent === 0)) io.stdout(describe(report, dryRun));
  }
  return reports;
}

export const pushCommand: Command = {
  async run(args, io) {
    const url = args.options.to as string | undefined;
    const project = args.options.project as string | undefined;
    if (!url) throw new UsageError("name the archive: --to URL");
    if (!project) throw new UsageError("name the archive's project: --project NAME");
    const token = process.env.BONSAI_TOKEN;
    if (!token) throw new UserError("set BONSAI_TOKEN to your archive token (it is never taken on the command line)");
    const client = new ArchiveClient(url, token);
    const watch = args.options.watch === true;
    const interval = ((args.options.interval as number | undefined) ?? 5) * 1000;
    if (watch && args.options["dry-run"]) throw new UsageError("--watch and --dry-run cannot be used together");
    await withCliStore(args, { create: false }, async (store) => {
        const ids = sessionsToPush(store, args);
        const refused = new Set<string>();
        const reports = await round(store, ids, client, args, io, false, refused);
        if (args.options.json) printJson(io, reports);
        if (!watch) {
          if (refused.size > 0) throw new UserError(`${refused.size} of ${ids.length} sessions were not pushed (named above); the others were`);
          return;
        }
        let stopped = false;
        const stop = (): void => {
          stopped = true;
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
        while (!stopped) {
          await new Promise((resolve) => setTimeout(resolve, interval));
          if (stopped) break;
          const current = args.options.all ? store.listSessions().map((s) => s.id) : ids;
          for (const id of current) {
            const source = store.getSession(id)?.sourcePath;
            if (source) await store.importFile(source);
          }
          // a session refused once is not sent again (and not named again) while this watch runs
          const more = (args.options.all ? store.listSessions().map((s) => s.id) : ids).filter((id) => !refused.has(id));
          const done = await round(store, more, client, args, io, true, refused);
          if (args.options.json) for (const r of done) if (r.sent > 0) printJson(io, r);
        }
    });
  },
};
