/**
 * A team archive for CLI tests: a private PostgreSQL server (packages/testkit) with one database,
 * and `bonsai team serve` of the built CLI on it, listening on a free loopback port.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startPostgres, type PostgresCluster } from "@bonsai/testkit/postgres";

const here = path.dirname(fileURLToPath(import.meta.url));
export const BIN = path.resolve(here, "../bin/bonsai.cjs");

export interface TestArchive {
  cluster: PostgresCluster;
  database: string;
  url: string;
  serve: ChildProcess;
  /** what the server printed so far (one line per request) */
  log(): string;
  stop(): Promise<void>;
}

/** the environment the CLI runs in: the archive's database, `cwd` as home, no token unless `env` gives one */
function cliEnv(cwd: string, database: string, env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, BONSAI_TEAM_DATABASE: database, HOME: cwd, BONSAI_TOKEN: "", ...env };
}

/** Runs the built CLI in `cwd` with the archive's database in the environment. */
export function runBonsai(cwd: string, database: string, args: string[], env: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", cwd, env: cliEnv(cwd, database, env) });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** runBonsai without blocking this process (a server the test runs in it must answer the CLI). */
export function runBonsaiAsync(cwd: string, database: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: cliEnv(cwd, database, env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Starts `bonsai team serve` on a database and resolves with the URL it prints. */
export function startServe(database: string, extraArgs: string[] = []): Promise<{ serve: ChildProcess; url: string; log(): string }> {
  let out = "";
  const serve = spawn(process.execPath, [BIN, "team", "serve", "--listen", "127.0.0.1:0", ...extraArgs], { env: { ...process.env, BONSAI_TEAM_DATABASE: database }, stdio: ["ignore", "pipe", "pipe"] });
  serve.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    let err = "";
    serve.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(err);
      if (match) resolve({ serve, url: match[1] as string, log: () => out });
    });
    serve.once("exit", (code) => reject(new Error(`team serve exited ${code}: ${err}`)));
  });
}

/** A fresh PostgreSQL server, its archive database set up by `setUp` (through the CLI), then served. */
export async function startTestArchive(setUp: (database: string) => void): Promise<TestArchive> {
  const cluster = await startPostgres();
  const database = cluster.createDatabase("archive");
  setUp(database);
  const { serve, url, log } = await startServe(database);
  return {
    cluster,
    database,
    url,
    serve,
    log,
    async stop() {
      if (serve.exitCode === null) {
        serve.kill("SIGTERM");
        await new Promise((resolve) => serve.once("exit", resolve));
      }
      cluster.stop();
    },
  };
}
