/**
 * `bonsai ls [--json]`: the sessions in the Bonsai database, most recently updated first, with the
 * title given in the app when there is one. --json gives the store's summaries (agent, title, cwd,
 * entryCount, compactionCount, readOnly, ...; `titleInBonsai` when the title was given in the app;
 * `commits`: what a session imported from a checkpoint branch produced, `[{sha, subject, date, files}]`;
 * `contextTokens`: what the model sees from the current leaf, the figure every panel and command leads
 * with, core's contextFigureOf).
 */
import { commitLines } from "../commits-text";
import { contextFigureOf, sessionTitle } from "@bonsai/core";
import type { SessionSummary, SqliteSessionStore } from "@bonsai/store";
import { column, printJson } from "../output";
import { withCliStore } from "../store-db";
import type { Command } from "./command";

/** What the model sees from each session's current leaf (core contextFigureOf), as `bonsai context` leads with it: one read for the list. */
function contextTokensOf(store: SqliteSessionStore, sessions: readonly SessionSummary[]): Map<string, number> {
  const figures = store.getLeafContextFigures(sessions.map((s) => s.id));
  return new Map([...figures].map(([id, f]) => [id, contextFigureOf(f).contextTokens]));
}

/** 49523 -> "49.5K" */
function shortTokens(n: number): string {
  return n < 1000 ? String(n) : n < 1_000_000 ? `${(n / 1000).toFixed(1)}K` : `${(n / 1_000_000).toFixed(2)}M`;
}

export const lsCommand: Command = {
  async run(args, io) {
    await withCliStore(args, { create: false }, (store) => {
      // a title given in the app (kept in Bonsai, not in the agent's file) wins
      const titles = store.getSessionTitles();
      const commits = store.listSessionCommits();
      const listed = store.listSessions();
      const context = contextTokensOf(store, listed);
      const sessions = listed
        .map((s) => (titles.has(s.id) ? { ...s, title: titles.get(s.id) ?? s.title, titleInBonsai: true } : s))
        // (a session removed by another process since the list was read: nothing seen)
        .map((s) => ({ ...s, contextTokens: context.get(s.id) ?? 0, commits: commits.get(s.id) ?? [] }));
      if (args.options.json) {
        printJson(io, sessions);
        return;
      }
      if (sessions.length === 0) {
        io.stdout('no sessions yet (run "bonsai import")\n');
        return;
      }
      const idWidth = Math.min(40, Math.max(...sessions.map((s) => s.id.length)));
      io.stdout(`${column("ID", idWidth)}  ${column("AGENT", 11)}  ${column("UPDATED", 16)}  ${"ENTRIES".padStart(7)}  ${"COMP".padStart(4)}  ${"CONTEXT".padStart(7)}  TITLE / FIRST MESSAGE\n`);
      for (const s of sessions) {
        const updated = s.updatedAt.replace("T", " ").slice(0, 16);
        const title = sessionTitle({ name: s.title, firstPrompt: s.firstMessage }) ?? "(no messages)";
        const where = s.cwd ? `  [${s.cwd}]` : "";
        io.stdout(
          `${column(s.id, idWidth)}  ${column(s.agent, 11)}  ${column(updated, 16)}  ${String(s.entryCount).padStart(7)}  ${String(s.compactionCount).padStart(4)}  ${shortTokens(s.contextTokens).padStart(7)}  ${column(title, 70).trimEnd()}${where}\n`,
        );
        if (s.readOnly !== null) io.stdout(`${" ".repeat(idWidth + 2)}read-only: ${s.readOnly}\n`);
        else if (s.detached !== null) io.stdout(`${" ".repeat(idWidth + 2)}changes kept in the database only: ${s.detached}\n`);
        for (const line of commitLines(s.commits, " ".repeat(idWidth + 2))) io.stdout(`${line}\n`);
      }
    });
  },
};
