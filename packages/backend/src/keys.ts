/**
 * Where the model API key lives. It never enters the SQLite file, the settings, the logs or the
 * renderer: handlers only report `hasApiKey` and where the key comes from.
 *   - the environment variable named by settings.model.apiKeyEnv (wins when set)
 *   - a stored key: the OS keychain in Electron (safeStorage, supplied by the desktop app), or in
 *     browser mode / the CLI a file `api-key` in the data folder, created with mode 0600.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export interface KeyProvider {
  /** where set() stores the key */
  readonly storage: "keychain" | "file";
  get(): string | null;
  /** may persist asynchronously (the desktop app's backend process asks the main process to encrypt it) */
  set(key: string): void | Promise<void>;
  clear(): void | Promise<void>;
}

export const API_KEY_FILE = "api-key";

/** A key kept in <dataDir>/api-key, readable by the user only (0600). */
export function fileKeyProvider(dataDir: string): KeyProvider {
  const file = path.join(dataDir, API_KEY_FILE);
  return {
    storage: "file",
    get() {
      try {
        const key = fs.readFileSync(file, "utf8").trim();
        return key === "" ? null : key;
      } catch {
        return null;
      }
    },
    set(key) {
      fs.mkdirSync(dataDir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, key, { mode: 0o600 });
      fs.chmodSync(tmp, 0o600);
      fs.renameSync(tmp, file);
    },
    clear() {
      fs.rmSync(file, { force: true });
    },
  };
}

export interface ResolvedKey {
  key: string | null;
  source: "env" | "keychain" | "file" | null;
}

export function resolveApiKey(provider: KeyProvider, envName: string, env: NodeJS.ProcessEnv = process.env): ResolvedKey {
  const fromEnv = envName ? env[envName]?.trim() : undefined;
  if (fromEnv) return { key: fromEnv, source: "env" };
  const stored = provider.get();
  return stored ? { key: stored, source: provider.storage } : { key: null, source: null };
}
