/**
 * `bonsai serve [--port N] [--data-dir D] [--no-open]`: browser mode. Serves the built renderer and
 * the backend (WebSocket) on 127.0.0.1 only, prints the URL with a random token, opens it in the
 * default browser unless --no-open, and runs until interrupted (Ctrl-C).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { createBackend, backendDbPath, hostSettingsInfo, API_KEY_FILE } from "@bonsai/backend";
import { loadServeState, saveServeState, startServer } from "@bonsai/backend/server";
import { DB_FILE_NAME, defaultDataDir, defaultSessionDirs } from "@bonsai/store";
import { besideBundle } from "../bundle-paths";
import { UserError } from "../errors";
import type { Command } from "./command";
import { sqliteBinding } from "../native-binding";

/** The renderer built by `pnpm build` (apps/desktop/out/renderer), found from the CLI bundle or the source. */
export function findRendererDir(): string | null {
  // apps/cli/dist (the bundle) or apps/cli/src (the sources): the renderer is in apps/desktop/out
  const candidates = [process.env.BONSAI_RENDERER_DIR, fileURLToPath(besideBundle("../../desktop/out/renderer"))];
  return candidates.find((d): d is string => !!d && fs.existsSync(path.join(d, "index.html"))) ?? null;
}

export function findWorker(): URL | undefined {
  const url = besideBundle("compaction-worker.mjs");
  return fs.existsSync(fileURLToPath(url)) ? url : undefined;
}

function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["cmd", ["/c", "start", "", url]] : ["xdg-open", [url]];
  try {
    const child = spawn(cmd, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // no browser opener: the URL is printed anyway
  }
}

export const serveCommand: Command = {
  async run(args, io) {
    const port = args.options.port as number | undefined;
    if (port !== undefined && port > 65535) throw new UserError(`--port must be at most 65535, got ${port}`, 2);
    const rendererDir = findRendererDir();
    if (!rendererDir) throw new UserError("the app is not built (apps/desktop/out/renderer is missing): run `pnpm build` in the Bonsai checkout first");
    const dataDirOption = args.options["data-dir"] as string | undefined;
    const dataDir = path.resolve(dataDirOption ?? defaultDataDir());
    // as the other commands: --data-dir D means D/bonsai.db; without it BONSAI_DB (when set) wins
    const dbPath = dataDirOption !== undefined ? path.join(dataDir, DB_FILE_NAME) : backendDbPath(dataDir);

    let backend;
    try {
      backend = createBackend({
        dataDir,
        dbPath,
        nativeBinding: sqliteBinding(),
        mode: "browser",
        version: process.env.npm_package_version ?? "0.1.0",
        worker: (() => {
          const url = findWorker();
          return url ? { url } : undefined;
        })(),
        onInternalError: (err, method) => io.stderr(`bonsai: internal error in ${method}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`),
      });
    } catch (err) {
      throw new UserError(err instanceof Error ? err.message : String(err));
    }
    // the token and (without --port) the port of the last run on this data folder: an open tab reconnects by itself
    const saved = loadServeState(dataDir);
    let server;
    try {
      try {
        server = await startServer({ backend, rendererDir, port: port ?? saved.port ?? 0, host: "127.0.0.1", token: saved.token });
      } catch (err) {
        if (port !== undefined || saved.port === null || (err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
        server = await startServer({ backend, rendererDir, port: 0, host: "127.0.0.1", token: saved.token });
      }
    } catch (err) {
      await backend.close();
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE") throw new UserError(`port ${port} is already in use; pick another with --port or leave it out`);
      throw new UserError(err instanceof Error ? err.message : String(err));
    }
    saveServeState(dataDir, { token: saved.token, port: server.port });

    io.stdout(`Bonsai is running at ${server.url}\n`);
    io.stdout(`  data folder: ${dataDir}\n`);
    io.stdout(`  database: ${backend.dbPath}\n`);
    io.stdout(`  only this machine can connect, and only with the token in the address (kept in ${path.join(dataDir, "serve.json")}, mode 0600, so an open tab reconnects after a restart). Press Ctrl-C to stop.\n`);
    io.stdout(`  model API key: from $${backend.engine.getSettings().model.apiKeyEnv}, or saved in Preferences to ${path.join(dataDir, API_KEY_FILE)} (mode 0600, never in the database)\n`);
    const folders = defaultSessionDirs(backend.engine.getSettings().sessionDirs);
    const more = hostSettingsInfo(dataDir, backend.dbPath).command.replace("KEY VALUE", "sessionDirs DIR...");
    io.stdout(`  the page imports uploads, and paths inside: ${folders.join(", ")} (more: \`${more}\`)\n`);
    if (!args.options["no-open"]) openInBrowser(server.url);

    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        resolve();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    io.stderr("bonsai: stopping\n");
    await server.close();
    await backend.close();
    return 0;
  },
};
