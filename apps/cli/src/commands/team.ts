/**
 * `bonsai team …`: the team archive's server and its administration. Every action opens the
 * archive's database (migrating it when this Bonsai is newer, refusing when it is older) and
 * answers in one line; a token is printed once, when it is made.
 */
import { addPerson, addProject, AnswerCache, createArchiveApp, createArchiveServer, grant, issueToken, listen, openArchiveDatabase, revokeTokens, shutdownGracefully, WorkerAmnesiaScorer, amnesiaWorkerUrl, type ArchiveDatabase } from "@bonsai/team";
import type { ParsedArgs } from "../args";
import { UserError, UsageError } from "../errors";
import { printJson, type Io } from "../output";
import type { Command } from "./command";
import { sqliteBinding } from "../native-binding";
import { findRendererDir, findWorker } from "./serve";

const DEFAULT_LISTEN = "127.0.0.1:8470";

function databaseUrl(args: ParsedArgs): string {
  const url = (args.options.database as string | undefined) ?? process.env.BONSAI_TEAM_DATABASE;
  if (!url) throw new UsageError("the archive's database is not named: pass --database postgres://… or set BONSAI_TEAM_DATABASE");
  return url;
}

function listenAddress(value: string): { host: string; port: number } {
  const match = /^(.*):(\d{1,5})$/.exec(value);
  const port = match ? Number(match[2]) : NaN;
  if (!match || !match[1] || port > 65535) throw new UsageError(`--listen takes HOST:PORT, e.g. ${DEFAULT_LISTEN}: ${JSON.stringify(value)}`);
  return { host: match[1].replace(/^\[(.*)\]$/, "$1"), port };
}

function need(args: ParsedArgs, count: number, usage: string): string[] {
  const rest = args.positionals.slice(1);
  if (rest.length !== count) throw new UsageError(`usage: bonsai team ${usage}`);
  return rest;
}

async function withArchive<T>(args: ParsedArgs, fn: (db: ArchiveDatabase) => Promise<T>): Promise<T> {
  const db = await openArchiveDatabase(databaseUrl(args));
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

function printToken(io: Io, args: ParsedArgs, who: string, token: string, tokenId: string): void {
  if (args.options.json) {
    printJson(io, { name: who, token, tokenId });
    return;
  }
  io.stdout(`token for ${who} (shown once; keep it in BONSAI_TOKEN):\n${token}\n`);
}

function optionalWorker(): { worker?: URL } {
  const worker = findWorker();
  return worker ? { worker } : {};
}

/** the default memory for kept answers: a few hundred session lists, searches and short sessions */
const DEFAULT_CACHE_MB = 64;

function cacheMegabytes(value: string | undefined): number {
  if (value === undefined) return DEFAULT_CACHE_MB;
  const mb = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(mb) || mb > 65_536) throw new UsageError(`--cache-mb takes a whole number of megabytes from 0 to 65536: ${JSON.stringify(value)}`);
  return mb;
}

/** the header named by --trusted-proxy-header, checked to be a header name */
function proxyHeader(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(value)) throw new UsageError(`--trusted-proxy-header takes a header name such as x-forwarded-for: ${JSON.stringify(value)}`);
  return value.toLowerCase();
}

async function serve(args: ParsedArgs, io: Io): Promise<number> {
  const { host, port } = listenAddress((args.options.listen as string | undefined) ?? DEFAULT_LISTEN);
  const answers = new AnswerCache(cacheMegabytes(args.options["cache-mb"] as string | undefined) * 1024 * 1024);
  const listPage = args.options["list-page"] as number | undefined;
  if (listPage !== undefined && (listPage < 1 || listPage > 1000)) throw new UsageError("--list-page takes a number of sessions from 1 to 1000");
  const db = await openArchiveDatabase(databaseUrl(args));
  const log = (line: string): void => io.stdout(`${line}\n`);
  // the explorer page and its WebSocket API, when the app is built beside this command
  const rendererDir = findRendererDir();
  // the amnesia report over many sessions scores each session on a worker thread of its own (not the serving thread)
  const worker = optionalWorker();
  const scorer = worker.worker ? new WorkerAmnesiaScorer(amnesiaWorkerUrl(worker.worker)) : undefined;
  const amnesia = scorer ? { amnesiaScore: scorer.score } : {};
  const app = rendererDir ? createArchiveApp({ pool: db.pool, rendererDir, nativeBinding: sqliteBinding(), ...worker, ...amnesia, ...(listPage !== undefined ? { listPage } : {}), version: process.env.npm_package_version ?? "0.1.0", log }) : undefined;
  if (!app) io.stderr("the app is not built (apps/desktop/out/renderer is missing): serving the archive's API only, without the explorer page\n");
  const signInLimit = { trustedProxyHeader: proxyHeader(args.options["trusted-proxy-header"] as string | undefined) };
  const server = createArchiveServer({ pool: db.pool, log, answers, signInLimit, ...(app ? { app } : {}), ...amnesia });
  let address;
  try {
    address = await listen(server, host, port);
  } catch (error) {
    await app?.close();
    await scorer?.close();
    await db.close();
    const code = (error as { code?: string }).code;
    throw new UserError(code === "EADDRINUSE" ? `${host}:${port} is already in use; pick another with --listen` : `cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
  io.stderr(`team archive listening on http://${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      io.stderr("team archive stopping: finishing the requests under way\n");
      // the open pages' WebSockets are closed by the app (a server does not wait for upgraded connections)
      void Promise.all([shutdownGracefully(server), app?.close(), scorer?.close()]).then(() => resolve());
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await db.close();
  io.stderr("team archive stopped\n");
  return 0;
}

export const teamCommand: Command = {
  async run(args, io) {
    const action = args.positionals[0] as string;
    const sub = args.positionals[1];
    if (action === "serve") return serve(args, io);
    if (action === "user" && sub === "add") {
      const [, name] = need(args, 2, "user add NAME [--role admin|member]");
      const role = (args.options.role as string | undefined) ?? "member";
      if (role !== "admin" && role !== "member") throw new UsageError(`--role is admin or member, not ${JSON.stringify(role)}`);
      const made = await withArchive(args, (db) => addPerson(db.pool, name as string, role));
      printToken(io, args, name as string, made.token, made.tokenId);
      return 0;
    }
    if (action === "project" && sub === "add") {
      const [, name] = need(args, 2, "project add NAME");
      await withArchive(args, (db) => addProject(db.pool, name as string));
      io.stdout(`project ${name} added\n`);
      return 0;
    }
    if (action === "grant") {
      const [name, project] = need(args, 2, "grant NAME PROJECT");
      await withArchive(args, (db) => grant(db.pool, name as string, project as string));
      io.stdout(`${name} may read and push ${project}\n`);
      return 0;
    }
    if (action === "token" && sub === "add") {
      const [, name] = need(args, 2, "token add NAME");
      const made = await withArchive(args, (db) => issueToken(db.pool, name as string));
      printToken(io, args, name as string, made.token, made.tokenId);
      return 0;
    }
    if (action === "token" && sub === "revoke") {
      const person = args.options.user as string | undefined;
      const target = person !== undefined ? (need(args, 1, "token revoke --user NAME"), { person }) : { tokenId: need(args, 2, "token revoke TOKEN_ID")[1] as string };
      const count = await withArchive(args, (db) => revokeTokens(db.pool, target));
      io.stdout(`${count} token${count === 1 ? "" : "s"} revoked\n`);
      return 0;
    }
    if (action === "ls") {
      need(args, 0, "ls");
      const listing = await withArchive(args, async (db) => ({
        people: (await db.pool.query<{ name: string; role: string; projects: string[] }>(
          `SELECT p.name, p.role, coalesce(array_agg(pr.name ORDER BY pr.name) FILTER (WHERE pr.name IS NOT NULL), '{}') AS projects
             FROM people p LEFT JOIN grants g ON g.person_id = p.id LEFT JOIN projects pr ON pr.id = g.project_id
            GROUP BY p.id ORDER BY p.name`,
        )).rows,
        projects: (await db.pool.query<{ name: string; sessions: number }>(
          "SELECT pr.name, count(s.id)::int AS sessions FROM projects pr LEFT JOIN sessions s ON s.project_id = pr.id GROUP BY pr.id ORDER BY pr.name",
        )).rows,
      }));
      if (args.options.json) printJson(io, listing);
      else {
        for (const p of listing.projects) io.stdout(`project ${p.name}: ${p.sessions} session${p.sessions === 1 ? "" : "s"}\n`);
        for (const p of listing.people) io.stdout(`${p.role === "admin" ? "admin " : "member"} ${p.name}${p.role === "admin" ? " (every project)" : `: ${p.projects.join(", ") || "no projects"}`}\n`);
      }
      return 0;
    }
    throw new UsageError(`unknown team action ${JSON.stringify([action, sub].filter(Boolean).join(" "))}: serve, user add, project add, grant, token add, token revoke or ls`);
  },
};
