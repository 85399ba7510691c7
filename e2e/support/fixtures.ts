/**
 * Test fixtures shared by every spec (shell-* and explorer-*):
 *   bonsai  a running backend on a fresh temporary data folder: `bonsai serve --no-open --port 0`
 *           (browser target) with { url, dataDir, sessionsDir, call(method, params) } for direct
 *           setup calls; sessionsDir is an agents' session folder of that host (BONSAI_SESSIONS_DIRS),
 *           the one place the page may import paths from
 *   app     a Page showing the app, connected and ready: Chromium at bonsai.url, or the Electron
 *           window (electron target, skipped with a reason where no Electron binary is installed)
 * Nothing is built here: run `pnpm build` first (the test runner does).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test as base, expect, _electron, type Page, type ElectronApplication } from "@playwright/test";
import WebSocket from "ws";
import { CLI, ELECTRON_MAIN, electronBinary, REPO_ROOT } from "./paths";

export interface BonsaiServer {
  /** the URL with the token (browser target); "" for Electron */
  url: string;
  dataDir: string;
  /** an agents' session folder of the host (BONSAI_SESSIONS_DIRS): the page may import paths inside it */
  sessionsDir: string;
  /** call a contract method directly (setup shortcuts); throws on an error result */
  call<T = unknown>(method: string, params?: unknown): Promise<T>;
  /**
   * Stops the backend and starts it again on the same data folder (browser target: the same port
   * and token, so `url` stays valid): what a user's next start of the app finds. Not for Electron.
   */
  restart(): Promise<void>;
}

export interface BonsaiOptions {
  target: "browser" | "electron";
  /** extra environment for the backend process (e.g. an API key variable for the mock model server) */
  serveEnv: Record<string, string>;
}

interface Fixtures {
  bonsai: BonsaiServer;
  app: Page;
}

async function startServe(dataDir: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  if (!fs.existsSync(path.join(REPO_ROOT, "apps/cli/dist/bonsai.mjs"))) throw new Error("the CLI is not built: run `pnpm build` first");
  const child = spawn(process.execPath, [CLI, "serve", "--no-open", "--data-dir", dataDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bonsai serve did not start in 20 s:\n${out}`)), 20_000);
    const check = () => {
      const m = /running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`bonsai serve exited with ${code}:\n${out}`));
    });
  });
  return { child, url, output: () => out };
}

/** `bonsai ARGS...` on the host (the built CLI); its stdout, or an error with its stderr. */
export function bonsaiCli(args: readonly string[], env: Record<string, string> = {}): string {
  try {
    return execFileSync(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`bonsai ${args.join(" ")} failed: ${e.stderr || e.message}`, { cause: err });
  }
}

/**
 * Runs a host command as the page shows it (`bonsai config set KEY URL --data-dir '/tmp/x'`), the
 * placeholder after KEY replaced by `values`: what a user copies from the Preferences pane.
 */
export function runShownHostCommand(command: string, values: readonly string[]): string {
  const words = [...command.matchAll(/'([^']*)'|(\S+)/gu)].map((m) => m[1] ?? m[2]!);
  const env: Record<string, string> = {};
  while (words[0]?.includes("=")) {
    const [name, ...rest] = words.shift()!.split("=");
    env[name!] = rest.join("=");
  }
  if (words[0] !== "bonsai" || words[1] !== "config" || words[2] !== "set") throw new Error(`not a bonsai config set command: ${command}`);
  return bonsaiCli([...words.slice(1, 4), ...values, ...words.slice(5)], env);
}

/** One WebSocket call to a running serve (for setup; the UI is what the specs test). */
async function wsCall<T>(url: string, method: string, params: unknown): Promise<T> {
  const u = new URL(url);
  const ws = new WebSocket(`ws://${u.host}/ws?token=${encodeURIComponent(u.searchParams.get("token") ?? "")}`);
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    return await new Promise<T>((resolve, reject) => {
      ws.on("message", (data) => {
        const frame = JSON.parse(data.toString()) as { t: string; id: number; result: { ok: boolean; value?: T; error?: { code: string; message: string } } };
        if (frame.t !== "result" || frame.id !== 1) return;
        if (frame.result.ok) resolve(frame.result.value as T);
        else reject(new Error(`${method}: ${frame.result.error?.code}: ${frame.result.error?.message}`));
      });
      ws.send(JSON.stringify({ t: "call", id: 1, method, params: params ?? {} }));
    });
  } finally {
    ws.close();
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Waits until the shell is connected and has loaded the session list. */
async function waitForShell(page: Page): Promise<void> {
  await expect(page.getByTestId("import-button")).toBeVisible();
  await expect(page.locator('[data-testid="session-list"], [data-testid="session-list-empty"]')).toBeVisible();
}

export const test = base.extend<Fixtures & BonsaiOptions & { electronApp: ElectronApplication | null }>({
  target: ["browser", { option: true }],
  serveEnv: [{}, { option: true }],

  electronApp: async ({ target }, use, testInfo) => {
    if (target !== "electron") return use(null);
    const bin = electronBinary();
    testInfo.skip(!bin, "no Electron binary installed here (ELECTRON_SKIP_BINARY_DOWNLOAD); these specs run against Electron where it is");
    testInfo.skip(!fs.existsSync(ELECTRON_MAIN), "the Electron app is not built: run `pnpm build`");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-e2e-electron-"));
    fs.mkdirSync(path.join(dataDir, "agent-sessions"));
    const app = await _electron.launch({
      executablePath: bin!,
      args: [ELECTRON_MAIN],
      env: { ...process.env, BONSAI_USER_DATA_DIR: dataDir, BONSAI_SESSIONS_DIRS: path.join(dataDir, "agent-sessions") } as Record<string, string>,
    });
    await use(app);
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  },

  bonsai: async ({ target, serveEnv, electronApp }, use) => {
    if (target === "electron") {
      const dataDir = await electronApp!.evaluate(({ app }) => app.getPath("userData"));
      const window = await electronApp!.firstWindow();
      await use({
        url: "",
        dataDir,
        sessionsDir: path.join(dataDir, "agent-sessions"),
        call: async <T,>(method: string, params?: unknown) =>
          window.evaluate(
            async ([m, p]) => {
              const r = await (window as unknown as { bonsai: Record<string, (i: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>> }).bonsai[m as string]!(p ?? {});
              if (!r.ok) throw new Error(r.error?.message);
              return r.value;
            },
            [method, params] as const,
          ) as Promise<T>,
        restart: () => Promise.reject(new Error("restart is for the browser target (bonsai serve) only")),
      });
      return;
    }
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-e2e-"));
    const dataDir = path.join(root, "data");
    const sessionsDir = path.join(root, "agent-sessions");
    fs.mkdirSync(sessionsDir, { recursive: true });
    const env = { BONSAI_SESSIONS_DIRS: sessionsDir, ...serveEnv };
    let serve = await startServe(dataDir, env);
    const server: BonsaiServer = {
      url: serve.url,
      dataDir,
      sessionsDir,
      call: (method, params) => wsCall(server.url, method, params),
      restart: async () => {
        await stop(serve.child);
        serve = await startServe(dataDir, env);
        server.url = serve.url;
      },
    };
    try {
      await use(server);
    } finally {
      await stop(serve.child);
      fs.rmSync(root, { recursive: true, force: true });
    }
  },

  app: async ({ target, bonsai, electronApp, page }, use) => {
    if (target === "electron") {
      const window = await electronApp!.firstWindow();
      await waitForShell(window);
      await use(window);
      return;
    }
    await page.goto(bonsai.url);
    await waitForShell(page);
    await use(page);
  },
});

export { expect };
