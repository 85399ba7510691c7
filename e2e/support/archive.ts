/**
 * A team archive for page tests and benches: a private PostgreSQL server (packages/testkit), its
 * database set up with the built CLI, and `bonsai team serve` processes on free loopback ports
 * serving the built page.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { startPostgres, type PostgresCluster } from "@bonsai/testkit/postgres";
import { CLI } from "./paths";

/** Runs the built CLI; its output, or an error with its stderr. */
export function bonsaiCli(args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`bonsai ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

/** Sets up `project` with one member `person` on the archive's database; the member's token. */
export function addMember(database: string, project: string, person: string): string {
  const admin = (...args: string[]): string => bonsaiCli(["team", ...args, "--database", database]);
  admin("project", "add", project);
  const { token } = JSON.parse(admin("user", "add", person, "--role", "member", "--json")) as { token: string };
  admin("grant", person, project);
  return token;
}

export interface TeamServe {
  url: string;
  child: ChildProcess;
}

/** Starts `bonsai team serve` on `database`; every chunk it prints (log lines, errors) goes to `onOutput`. */
export function startTeamServe(database: string, onOutput: (chunk: Buffer) => void = () => {}): Promise<TeamServe> {
  const child = spawn(process.execPath, [CLI, "team", "serve", "--database", database, "--listen", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", onOutput);
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      onOutput(chunk);
      err += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: m[1] as string, child });
    });
    child.once("exit", () => reject(new Error(`team serve exited: ${err}`)));
  });
}

/** Stops a `team serve` process and waits for it to exit. */
export async function stopTeamServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

export interface PageArchive {
  origin: string;
  database: string;
  stop(): Promise<void>;
}

export async function startPageArchive(name: string): Promise<PageArchive> {
  const cluster: PostgresCluster = await startPostgres();
  const database = cluster.createDatabase(name);
  const serve = await startTeamServe(database);
  return {
    origin: serve.url,
    database,
    async stop() {
      await stopTeamServe(serve.child);
      cluster.stop();
    },
  };
}
