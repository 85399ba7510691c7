/**
 * The API key in the OS keychain: Electron's safeStorage (asynchronous API) encrypts it with a key
 * the OS keeps (Keychain, DPAPI, a Linux secret service or kwallet); only the ciphertext is written
 * to <userData>/api-key.enc, atomically. Where the OS offers no keychain, or on Linux where
 * safeStorage would fall back to its `basic_text` backend (a hard-coded password: plain text in
 * effect), storing is refused with a message offering the environment variable instead.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { safeStorage } from "electron";
import { IpcError } from "@bonsai/ipc";

export interface KeyVault {
  read(): Promise<string | null>;
  write(key: string): Promise<void>;
  clear(): void;
}

/** Why the key cannot be kept in the keychain here, or null when it can. */
export async function keychainUnavailableReason(): Promise<string | null> {
  if (process.platform === "linux" && safeStorage.getSelectedStorageBackend() === "basic_text") {
    return "no keychain (secret service or kwallet) was found, so the key would be stored in plain text; set the environment variable named in Preferences instead";
  }
  if (!(await safeStorage.isAsyncEncryptionAvailable())) {
    return "this system offers no keychain to store the key in; set the environment variable named in Preferences instead";
  }
  return null;
}

export function keychainVault(userData: string): KeyVault {
  const file = path.join(userData, "api-key.enc");
  const vault: KeyVault = {
    async read() {
      try {
        if ((await keychainUnavailableReason()) !== null) return null;
        const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(fs.readFileSync(file));
        const key = result.trim();
        // the OS rotated its key: store the key again under the new one (a failure keeps the old file)
        if (shouldReEncrypt && key !== "") await vault.write(key).catch(() => undefined);
        return key === "" ? null : key;
      } catch {
        return null;
      }
    },
    async write(key) {
      const reason = await keychainUnavailableReason();
      if (reason !== null) throw new IpcError("unavailable", reason);
      const encrypted = await safeStorage.encryptStringAsync(key);
      fs.mkdirSync(userData, { recursive: true });
      const tmp = `${file}.tmp`;
      fs.writeFileSync(tmp, encrypted, { mode: 0o600 });
      fs.renameSync(tmp, file);
    },
    clear() {
      fs.rmSync(file, { force: true });
    },
  };
  return vault;
}
