/**
 * A team archive for page tests: a private PostgreSQL server (packages/testkit), its database set
 * up with the built CLI, and `bonsai team serve` on a free loopback port serving the built page.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { startPostgres, type PostgresCluster } from "@bonsai/testkit/postgres";
import { CLI } from "./paths";

/** Runs the built CLI; its output, or an error with its stderr. */
export function bonsaiCli(args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`bonsai ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

export interface PageArchive {
  origin: string;
  database: string;
  stop(): Promise<void>;
}

export async function startPageArchive(name: string): Promise<PageArchive> {
  const cluster: PostgresCluster = await startPostgres();
  const database = cluster.createDatabase(name);
  const serve: ChildProcess = spawn(process.execPath, [CLI, "team", "serve", "--database", database, "--listen", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "pipe"] });
  const origin = await new Promise<string>((resolve, reject) => {
    let err = "";
    serve.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1] as string);
    });
    serve.once("exit", () => reject(new Error(`team serve exited: ${err}`)));
  });
  serve.stdout?.resume();
  return {
    origin,
    database,
    async stop() {
      if (serve.exitCode === null) {
        const exited = new Promise((resolve) => serve.once("exit", resolve));
        serve.kill("SIGTERM");
        await exited;
      }
      cluster.stop();
    },
  };
}
