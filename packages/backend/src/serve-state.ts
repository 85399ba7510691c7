/**
 * What `bonsai serve` keeps in its data folder between runs, so a tab left open across a restart
 * reconnects by itself: the access token (random, 32 bytes) and the port it last listened on.
 * The file `serve.json` is readable by the user only (0600), like the API key file.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

export const SERVE_STATE_FILE = "serve.json";

export interface ServeState {
  token: string;
  /** the port of the last run (null before the first) */
  port: number | null;
}

const TOKEN = /^[A-Za-z0-9_-]{32,200}$/u;

/** The saved token and port, or a new token (saved at once) when there is none or it is unreadable. */
export function loadServeState(dataDir: string): ServeState {
  const file = path.join(dataDir, SERVE_STATE_FILE);
  try {
    const saved = JSON.parse(fs.readFileSync(file, "utf8")) as { token?: unknown; port?: unknown };
    if (typeof saved.token === "string" && TOKEN.test(saved.token)) {
      // a copy whose mode was widened (a backup, a umask) is narrowed again: the token opens the app
      if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
      const port = typeof saved.port === "number" && Number.isInteger(saved.port) && saved.port > 0 && saved.port < 65536 ? saved.port : null;
      return { token: saved.token, port };
    }
  } catch {
    // none yet, or unreadable: start afresh
  }
  const state = { token: randomBytes(32).toString("base64url"), port: null };
  saveServeState(dataDir, state);
  return state;
}

export function saveServeState(dataDir: string, state: ServeState): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, SERVE_STATE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}
