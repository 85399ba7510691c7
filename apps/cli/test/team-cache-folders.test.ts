/**
 * The page's session copies of a `bonsai team serve` process live in a folder of its own in the
 * temporary folder. One killed with -9 cannot remove it: the next `team serve` to start does, and
 * leaves the folder of a process that still runs. Real child processes of the built CLI, a real
 * private PostgreSQL server, a real page's WebSocket opening a pushed session.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPostgres, type PostgresCluster } from "@bonsai/testkit/postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBonsai, startServe } from "./team-archive";

let cluster: PostgresCluster;
let database: string;
let dir: string;
let tmp: string;
let token: string;
const saved = { TMPDIR: process.env.TMPDIR, BONSAI_RENDERER_DIR: process.env.BONSAI_RENDERER_DIR };
const running: ChildProcess[] = [];

function ok(args: string[], env: Record<string, string> = {}): string {
  const r = runBonsai(dir, database, args, env);
  if (r.code !== 0) throw new Error(`bonsai ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** the copy folders in the temporary folder of the processes under test, by the process id in their names */
function cacheFolders(): Map<number, string> {
  const found = new Map<number, string>();
  for (const name of fs.readdirSync(tmp)) {
    const m = /^bonsai-archive-cache-(\d+)-/u.exec(name);
    if (m) found.set(Number(m[1]), path.join(tmp, name));
  }
  return found;
}

async function serve(): Promise<{ process: ChildProcess; url: string }> {
  const started = await startServe(database);
  running.push(started.serve);
  return { process: started.serve, url: started.url };
}

/** opens the session in a page of `url` (the copy is made in the process's folder) */
async function openInPage(url: string, sessionId: string): Promise<{ ok: boolean }> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/ws?token=${encodeURIComponent(token)}`);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve(), { once: true });
    ws.addEventListener("error", () => reject(new Error("the page's WebSocket was refused")), { once: true });
  });
  try {
    return await new Promise<{ ok: boolean }>((resolve) => {
      ws.addEventListener("message", (event) => resolve((JSON.parse(String(event.data)) as { result: { ok: boolean } }).result), { once: true });
      ws.send(JSON.stringify({ t: "call", id: 1, method: "openSession", params: { sessionId } }));
    });
  } finally {
    ws.close();
  }
}

async function killed(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-cache-folders-"));
  tmp = path.join(dir, "tmp");
  fs.mkdirSync(tmp);
  fs.mkdirSync(path.join(dir, "renderer"));
  fs.writeFileSync(path.join(dir, "renderer", "index.html"), "<!doctype html><title>Bonsai</title>");
  cluster = await startPostgres();
  database = cluster.createDatabase("archive");
  // the served processes' temporary folder, and a page to serve (the app, and so its copies, exist only with one)
  process.env.TMPDIR = tmp;
  process.env.BONSAI_RENDERER_DIR = path.join(dir, "renderer");
  ok(["team", "project", "add", "alpha"]);
  token = (JSON.parse(ok(["team", "user", "add", "ada", "--json"])) as { token: string }).token;
  ok(["team", "grant", "ada", "alpha"]);
}, 120_000);

afterAll(async () => {
  for (const child of running) await killed(child, "SIGTERM");
  cluster?.stop();
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the page's copy folders", () => {
  it("are removed by the next team serve after one was killed with -9, and a running one's are left", async () => {
    const file = path.join(dir, "walnut.jsonl");
    const entries = ["the walnut plan", "agreed"].map((text, i) => ({ type: "message", id: `w-e${i}`, parentId: i === 0 ? null : `w-e${i - 1}`, timestamp: `2026-01-01T00:00:0${i}.000Z`, message: { role: i === 0 ? "user" : "assistant", content: [{ type: "text", text }] } }));
    fs.writeFileSync(file, `${[{ type: "session", version: 3, id: "walnut", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/src" }, ...entries].map((e) => JSON.stringify(e)).join("\n")}\n`);
    const data = path.join(dir, "local");
    ok(["import", file, "--data-dir", data]);

    const first = await serve();
    const other = await serve();
    ok(["push", "walnut", "--to", first.url, "--project", "alpha", "--data-dir", data], { BONSAI_TOKEN: token });
    expect(await openInPage(first.url, "alpha/ada/walnut")).toMatchObject({ ok: true });
    const folder = cacheFolders().get(first.process.pid as number) as string;
    expect(folder).toBeDefined();
    const copies = fs.readdirSync(path.join(folder, "sessions"), { recursive: true }).map(String);
    expect(copies.some((f) => f.endsWith("walnut.jsonl"))).toBe(true);
    const otherFolder = cacheFolders().get(other.process.pid as number) as string;
    expect(otherFolder).toBeDefined();

    await killed(first.process, "SIGKILL");
    expect(fs.existsSync(folder)).toBe(true);

    const next = await serve();
    expect(fs.existsSync(folder)).toBe(false);
    // the process still running keeps its folder; the new one has its own
    expect([...cacheFolders().keys()].sort()).toEqual([other.process.pid, next.process.pid].sort());
    expect(await openInPage(next.url, "alpha/ada/walnut")).toMatchObject({ ok: true });

    // a process stopped as usual removes its own
    await killed(other.process, "SIGTERM");
    expect(fs.existsSync(otherFolder)).toBe(false);
  }, 120_000);
});
