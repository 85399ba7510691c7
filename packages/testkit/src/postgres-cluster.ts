/**
 * A private PostgreSQL server for tests and benches: `initdb` in a temporary folder, started on a
 * free loopback port, stopped and removed afterwards. It uses the PostgreSQL binaries installed on
 * the machine (Debian's `postgresql` package puts them in /usr/lib/postgresql/<major>/bin; the
 * `BONSAI_PG_BIN` environment variable names another folder). PostgreSQL refuses to run as root, so
 * under root the server runs as the `postgres` user (`runuser`), in a folder that user owns.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  readonly url: string;
  readonly port: number;
  /** a URL of a new, empty database on this server */
  createDatabase(name: string): string;
  stop(): void;
}

/** The folder holding `initdb` and `pg_ctl`, or null with the reason none was found. */
export function findPostgresBin(): { bin: string } | { missing: string } {
  const fromEnv = process.env.BONSAI_PG_BIN;
  if (fromEnv) {
    return existsSync(join(fromEnv, "initdb")) ? { bin: fromEnv } : { missing: `BONSAI_PG_BIN=${fromEnv} holds no initdb` };
  }
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (majors[0]) return { bin: join(root, majors[0], "bin") };
  }
  return { missing: "no PostgreSQL server binaries (install Debian's postgresql package, or set BONSAI_PG_BIN)" };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

function postgresIds(): { uid: number; gid: number } {
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

function run(bin: string, tool: string, args: string[]): void {
  const command = isRoot ? "runuser" : join(bin, tool);
  const argv = isRoot ? ["-u", "postgres", "--", join(bin, tool), ...args] : args;
  const result = spawnSync(command, argv, { encoding: "utf8", cwd: tmpdir() });
  if (result.status !== 0) {
    throw new Error(`${tool} failed: ${(result.stderr || result.stdout || String(result.error)).trim().split("\n").slice(-3).join(" ")}`);
  }
}

/** Starts a private server; call `stop()` when done (also on failure paths). */
export async function startPostgres(): Promise<PostgresCluster> {
  const found = findPostgresBin();
  if ("missing" in found) throw new Error(found.missing);
  const { bin } = found;
  const dir = mkdtempSync(join(tmpdir(), "bonsai-pg-"));
  const data = join(dir, "data");
  if (isRoot) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const port = await freePort();
  let started = false;
  try {
    run(bin, "initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
    const options = [
      `-p ${port}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${dir}`,
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=200",
    ].join(" ");
    run(bin, "pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "60", "start"]);
    started = true;
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    createDatabase(name: string): string {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const psql = join(bin, "psql");
      const result = spawnSync(psql, ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c", `CREATE DATABASE ${name}`], { encoding: "utf8" });
      if (result.status !== 0) throw new Error(`CREATE DATABASE ${name} failed: ${result.stderr.trim()}`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop(): void {
      if (started) {
        try {
          run(bin, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
        } catch {
          // the folder goes below either way
        }
        started = false;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
