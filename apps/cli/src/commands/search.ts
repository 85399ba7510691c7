/**
 * `bonsai search QUERY [--session ID] [--limit N] [--json]`: full-text search over every stored
 * session; `--file FILE` searches one session file of any agent instead (read, never imported).
 * Sessions imported with `import --git` are also found by a commit sha prefix or a file one of
 * their commits changed (hits of type "commit", listed first, entryId = the commit's sha).
 */
import { searchEntries } from "@bonsai/formats";
import { sessionsByCommitOrFile, type CommitMatch } from "@bonsai/store";
import { UserError } from "../errors";
import { column, printJson, printSearchHits, type Io } from "../output";
import { reportIssues, withSession } from "../session-source";
import { withCliStore } from "../store-db";
import type { Command } from "./command";

/** from how many entries to index the search says so on stderr (about a second of work) */
const NOTICE_FROM = 20_000;

export const searchCommand: Command = {
  async run(args, io) {
    const query = args.positionals[0] as string;
    if (query.trim() === "") throw new UserError("the search query is empty", 2);
    const file = args.options.file as string | undefined;
    if (file !== undefined) {
      if (args.options.session !== undefined) throw new UserError("--file and --session cannot be used together", 2);
      await searchFile(io, query, file, args.options.limit as number | undefined, args.options.json === true);
      return;
    }
    await withCliStore(args, { create: false }, (store) => {
      const sessionOption = args.options.session as string | undefined;
      const sessionId = sessionOption === undefined ? undefined : store.resolveSessionId(sessionOption);
      const limit = args.options.limit as number | undefined;
      // sessions `bonsai import` stored are indexed for search by the first search (or the app): say
      // why this one takes a while
      const unindexed = store.unindexedCount();
      if (unindexed >= NOTICE_FROM) io.stderr(`indexing ${unindexed.toLocaleString("en-US")} entries for search (once, for the entries imported since the last search)\n`);
      const hits = store.search(query, { ...(sessionId ? { sessionId } : {}), ...(limit !== undefined ? { limit } : {}) });
      // sessions imported from a checkpoint branch are also found by their commits' sha or files
      const commits = sessionsByCommitOrFile(store.db, query).filter((m) => sessionId === undefined || m.sessionId === sessionId);
      printSearchHits(io, query, [...commits.map(commitHit), ...hits], args.options.json === true);
    });
  },
};

/** A session found by a commit: `type` "commit", `entryId` the commit's sha. */
function commitHit(m: CommitMatch): { sessionId: string; entryId: string; role: null; type: string; snippet: string; commit: CommitMatch["commit"]; file?: string } {
  const snippet = m.file ? `commit ${m.commit.sha.slice(0, 10)} ${m.commit.subject} (changed [${m.file}])` : `commit [${m.commit.sha.slice(0, 10)}] ${m.commit.subject}`;
  return { sessionId: m.sessionId, entryId: m.commit.sha, role: null, type: "commit", snippet, commit: m.commit, ...(m.file ? { file: m.file } : {}) };
}

/** Searches one session file: hits in file order, the same columns as the database search. */
async function searchFile(io: Io, query: string, file: string, limit: number | undefined, json: boolean): Promise<void> {
  const hits = await withSession(file, (session) => {
    reportIssues(io, session);
    return searchEntries(session.entries(), query, Math.min(limit ?? 50, 500)).map((h) => ({ sessionId: session.header.id, ...h }));
  });
  if (json) {
    printJson(io, hits);
    return;
  }
  if (hits.length === 0) {
    io.stdout(`no matches for ${JSON.stringify(query)} in ${file}\n`);
    return;
  }
  const ew = Math.max(...hits.map((h) => h.entryId.length));
  for (const h of hits) io.stdout(`${h.entryId.padEnd(ew)}  ${column(h.role ?? h.type, 12)} ${h.snippet}\n`);
}
