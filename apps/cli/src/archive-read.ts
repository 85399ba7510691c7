/**
 * The read commands on a team archive (`--archive URL`, token from BONSAI_TOKEN): `ls` and `search`
 * ask the archive, and name each session by its key "project/person/id", which every command
 * takes as SESSION (as does a shorter "project/id" or id that names one session); `context` and `export` download the session as JSONL into a private temporary
 * folder and answer on it exactly as on a local file (`context` with the commits the session produced,
 * asked of the archive), so the JSON is the same as for the local store.
 * `amnesia --all` asks the archive for its report over the sessions the token may read (computed on
 * the server: packages/team/src/archive-amnesia.ts), the same JSON as `amnesia --all` on the local
 * store; `amnesia SESSION` downloads the session as `context` does.
 * Only what the token may read is ever answered.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ARCHIVE_READ_ONLY, ArchiveClient, ArchiveError, type ArchivedSession, type PushedCommit } from "@bonsai/team";
import { amnesiaOverviewText } from "./amnesia-table";
import type { ParsedArgs } from "./args";
import { checkAmnesiaArgs } from "./commands/amnesia";
import type { CommandEntry } from "./commands/command";
import { UserError, UsageError } from "./errors";
import { column, printJson, printSearchHits, type Io } from "./output";

function clientOf(args: ParsedArgs): ArchiveClient {
  if (args.options["data-dir"] !== undefined) throw new UsageError("--archive and --data-dir cannot be used together");
  const token = process.env.BONSAI_TOKEN;
  if (!token) throw new UserError("set BONSAI_TOKEN to your archive token (it is never taken on the command line)");
  return new ArchiveClient(args.options.archive as string, token);
}

/** an archived session in the shape of the local `ls --json` (the counts the list does not read are null), with its place in the archive */
function localShape(s: ArchivedSession): Record<string, unknown> {
  const sourceFormat = s.agent === "claude-code" || s.agent === "codex" ? s.agent : "pi-jsonl";
  return {
    // the archive's key, "project/person/id": what --archive commands take to name this session
    id: s.key,
    headerId: s.id,
    title: s.title,
    cwd: s.cwd,
    sourcePath: null,
    sourceFormat,
    agent: s.agent,
    compactionCount: null,
    contextTokens: null,
    readOnly: ARCHIVE_READ_ONLY,
    parentSession: null,
    sourceVersion: null,
    createdAt: s.startedAt ?? s.pushedAt,
    updatedAt: s.pushedAt,
    importedAt: s.pushedAt,
    entryCount: s.entryCount,
    messageCount: null,
    firstMessage: null,
    leafId: null,
    prunedCount: 0,
    generation: 0,
    detached: null,
    archive: { project: s.project, pushedBy: s.pushedBy, pushedAt: s.pushedAt },
    commits: s.commits ?? [],
  };
}

async function ls(client: ArchiveClient, args: ParsedArgs, io: Io): Promise<void> {
  const limit = args.options.limit as number | undefined;
  if (limit !== undefined && limit < 1) throw new UsageError("--limit takes a number of sessions, 1 or more");
  const project = args.options.project as string | undefined;
  // every session the token may read, a page at a time (the archive's keyset order: newest push first)
  const sessions: ArchivedSession[] = [];
  for await (const s of client.allSessions({ ...(project !== undefined ? { project } : {}), ...(limit !== undefined ? { total: limit } : {}) })) sessions.push(s);
  if (args.options.json) {
    printJson(io, sessions.map(localShape));
    return;
  }
  if (sessions.length === 0) {
    io.stdout("no sessions in the archive that you may read\n");
    return;
  }
  const idWidth = Math.min(60, Math.max(...sessions.map((s) => s.key.length)));
  io.stdout(`${column("ID", idWidth)}  ${column("PROJECT", 12)}  ${column("PUSHED BY", 12)}  ${column("AGENT", 11)}  ${"ENTRIES".padStart(7)}  TITLE\n`);
  for (const s of sessions) {
    io.stdout(`${column(s.key, idWidth)}  ${column(s.project, 12)}  ${column(s.pushedBy, 12)}  ${column(s.agent, 11)}  ${String(s.entryCount).padStart(7)}  ${column(s.title ?? "", 70).trimEnd()}\n`);
  }
}

async function search(client: ArchiveClient, args: ParsedArgs, io: Io): Promise<void> {
  const query = args.positionals[0] as string;
  if (query.trim() === "") throw new UserError("the search query is empty", 2);
  if (args.options.file !== undefined) throw new UsageError("--archive and --file cannot be used together");
  const limit = args.options.limit as number | undefined;
  const session = args.options.session as string | undefined;
  const project = args.options.project as string | undefined;
  const hits = await client.search(query, { ...(limit !== undefined ? { limit } : {}), ...(session !== undefined ? { session } : {}), ...(project !== undefined ? { project } : {}) });
  // each hit names its session by its key, "project/person/id", as `ls --archive` lists it
  printSearchHits(io, query, hits.map((h) => ({ ...h, sessionId: h.key })), args.options.json === true);
}

async function amnesiaAll(client: ArchiveClient, url: string, args: ParsedArgs, io: Io): Promise<void> {
  const project = args.options.project as string | undefined;
  const overview = await client.amnesia(project === undefined ? {} : { project });
  if (args.options.json) printJson(io, overview);
  else io.stdout(amnesiaOverviewText(overview, project === undefined ? `the archive ${url}` : `project ${project} of the archive ${url}`));
}

/**
 * The commits of a session just downloaded. An archive older than this Bonsai has no such call (it
 * answers not-found for a session it has just served): the context is shown without them, and the
 * user is told so on stderr.
 */
async function commitsOrNone(client: ArchiveClient, key: string, io: Io): Promise<PushedCommit[]> {
  try {
    return await client.sessionCommits(key);
  } catch (error) {
    if (!(error instanceof ArchiveError) || error.code !== "not-found") throw error;
    io.stderr(`bonsai: this archive does not list the commits of its sessions (a server older than this Bonsai): the context is shown without them\n`);
    return [];
  }
}

/**
 * context and export: the session downloaded, then the command as on a local file; `context` also
 * asks for the commits the session produced (the file does not hold them), as the local store has them.
 */
async function onDownloaded(client: ArchiveClient, command: CommandEntry, args: ParsedArgs, io: Io): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-archive-"));
  try {
    const { sessionId: key, file } = await client.downloadSessionJsonl(args.positionals[0] as string, dir, args.options.project as string | undefined);
    const local: ParsedArgs = { ...args, positionals: [file, ...args.positionals.slice(1)], options: { ...args.options, archive: undefined, project: undefined } };
    if (command.spec.name === "context") {
      // by the key the download answered with: the commits of exactly the session downloaded
      const commits = await commitsOrNone(client, key, io);
      await (await import("./commands/context")).runContext(local, io, commits);
      return 0;
    }
    return (await (await command.load()).run(local, io)) ?? 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function runArchiveRead(command: CommandEntry, args: ParsedArgs, io: Io): Promise<number> {
  const name = command.spec.name;
  if (name === "amnesia") checkAmnesiaArgs(args);
  const client = clientOf(args);
  if (name === "amnesia" && args.options.all) await amnesiaAll(client, args.options.archive as string, args, io);
  else if (name === "ls") await ls(client, args, io);
  else if (name === "search") await search(client, args, io);
  else return await onDownloaded(client, command, args, io);
  return 0;
}
