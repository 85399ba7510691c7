/**
 * The two kinds of Bonsai writer of the two-writer fault scenarios, as real processes on one data
 * folder: the built `bonsai` CLI (`bonsai prune SID`) and `bonsai serve` (the app's backend in
 * browser mode, with its store worker) driven over its WebSocket as the page drives it (open the
 * session, then Prune at its leaf). Each run reports when it started and ended and, when refused,
 * its sentence, sorted by `refusalKind`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { connectWebSocket, createApi, IpcError, type BonsaiApi, type WsBridge } from "@bonsai/ipc";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
export const CLI_BIN = path.join(ROOT, "apps/cli/bin/bonsai.cjs");

export interface WriterRun {
  writer: "cli" | "app";
  startedAt: number;
  endedAt: number;
  /** null: done; else the one-line message the user sees */
  refusal: string | null;
}

/**
 * What a refusal says: "bonsai" (another Bonsai process holds the session), "stale" (the session
 * moved since the plan), "agent" (the file is being written by an agent), "other" (anything else:
 * a failure of the scenario).
 */
export function refusalKind(message: string): "bonsai" | "stale" | "agent" | "other" {
  if (/^another Bonsai process is writing this session; try again \(session [^)]+\)$/.test(message)) return "bonsai";
  if (/bonsai-original|this is a bug|unexpected error|internal error|\n\s+at /.test(message)) return "other";
  if (/running agent/.test(message)) return "agent";
  if (/Nothing was written; plan it again|runs at the session's current leaf/.test(message)) return "stale";
  return "other";
}

/** `bonsai prune SID` on the data folder's database; resolves when it exits. */
export function cliPrune(db: string, sessionId: string): Promise<WriterRun> {
  return cli(db, ["prune", sessionId]);
}

/** `bonsai ARGS` on the data folder's database; resolves when it exits. */
export function cli(db: string, args: string[]): Promise<WriterRun> {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, BONSAI_DB: db } });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    child.on("error", reject);
    child.on("exit", (code) => {
      const last = stderr.trim().split("\n").at(-1) ?? "";
      const refusal = code === 0 ? null : last.replace(/^bonsai: /, "") + (/\n\s+at /.test(stderr) ? "\n    at (a stack trace)" : "");
      resolve({ writer: "cli", startedAt, endedAt: performance.now(), refusal });
    });
  });
}

export interface ServedApp {
  api: BonsaiApi;
  /** opens the session as the page does (its follower starts) and returns the leaf the page shows */
  open(sessionId: string): Promise<string | null>;
  /** the session's leaf as the page's list shows it now */
  leaf(sessionId: string): Promise<string | null>;
  /** Prune as the page's button does, at the leaf the page shows */
  prune(sessionId: string, leafId: string | null): Promise<WriterRun>;
  /** Restore every pruned output, as the page's button does */
  restore(sessionId: string): Promise<WriterRun>;
  stop(): Promise<void>;
}

/** A page-less renderer folder: `bonsai serve` needs one to start; the scenarios use the WebSocket only. */
function rendererDir(dataDir: string): string {
  const dir = path.join(path.dirname(dataDir), "renderer");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>Bonsai</title>");
  return dir;
}

/** Starts `bonsai serve` on the data folder and connects to it as the page does. */
export function startServe(dataDir: string): Promise<ServedApp> {
  const child: ChildProcess = spawn(process.execPath, [CLI_BIN, "serve", "--no-open", "--port", "0", "--data-dir", dataDir], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, BONSAI_DB: "", BONSAI_RENDERER_DIR: rendererDir(dataDir) },
  });
  let out = "";
  let err = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => {
      if (!/running at/.test(out)) reject(new Error(`bonsai serve exited (${code}) before it ran: ${err}`));
    });
    child.stdout!.on("data", (d: Buffer) => {
      const before = out;
      out += d.toString();
      const m = /Bonsai is running at http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/.exec(out);
      if (!m || /running at/.test(before)) return;
      const bridge: WsBridge = connectWebSocket({
        url: `ws://127.0.0.1:${m[1]}/ws?token=${m[2]}`,
        create: (u) => new WebSocket(u) as unknown as ReturnType<Parameters<typeof connectWebSocket>[0]["create"]>,
        maxReconnects: 0,
      });
      const api = createApi(bridge);
      resolve({
        api,
        open: async (sessionId) => (await api.openSession({ sessionId })).session.leafId ?? null,
        leaf: async (sessionId) => (await api.listSessions()).sessions.find((x) => x.id === sessionId)?.leafId ?? null,
        prune: (sessionId, leafId) => appCall(() => api.applyPrune({ sessionId, leafId })),
        restore: (sessionId) => appCall(() => api.restorePruned({ sessionId })),
        stop: async () => {
          bridge.close();
          child.kill("SIGTERM");
          await exited;
          if (/internal error/.test(err)) throw new Error(`bonsai serve reported an internal error: ${err}`);
        },
      });
    });
  });
}

/** One call of the page: done, or its refusal's message. */
async function appCall(call: () => Promise<unknown>): Promise<WriterRun> {
  const startedAt = performance.now();
  let refusal: string | null = null;
  try {
    await call();
  } catch (e) {
    refusal = e instanceof IpcError ? e.message : `not an IpcError: ${String(e)}`;
  }
  return { writer: "app", startedAt, endedAt: performance.now(), refusal };
}

/** Runs `a` at once and `b` after `offsetMs` (negative: `b` first), both to their end. */
export async function atOffset<T>(offsetMs: number, a: () => Promise<T>, b: () => Promise<T>): Promise<[T, T]> {
  const later = (ms: number, f: () => Promise<T>) => new Promise<T>((resolve, reject) => setTimeout(() => f().then(resolve, reject), Math.max(0, ms)));
  return Promise.all([later(-offsetMs, a), later(offsetMs, b)]);
}

/** whether the two runs were under way at the same time */
export function overlapped(a: WriterRun, b: WriterRun): boolean {
  return a.startedAt < b.endedAt && b.startedAt < a.endedAt;
}
