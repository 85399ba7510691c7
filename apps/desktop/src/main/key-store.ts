/**
 * The API key in the OS keychain: Electron's safeStorage encrypts it with a key the OS keeps
 * (Keychain, DPAPI, libsecret/kwallet); only the ciphertext is written to <userData>/api-key.enc.
 * Where the OS offers no encryption, setApiKey is refused with a message (the key is never stored in
 * clear by the desktop app; the environment variable still works).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { safeStorage } from "electron";
import type { KeyProvider } from "@bonsai/backend";
import { IpcError } from "@bonsai/ipc";

export function keychainKeyProvider(userData: string): KeyProvider {
  const file = path.join(userData, "api-key.enc");
  return {
    storage: "keychain",
    get() {
      try {
        if (!safeStorage.isEncryptionAvailable()) return null;
        const key = safeStorage.decryptString(fs.readFileSync(file)).trim();
        return key === "" ? null : key;
      } catch {
        return null;
      }
    },
    set(key) {
      if (!safeStorage.isEncryptionAvailable()) {
        throw new IpcError("unavailable", "this system offers no keychain to store the key in; set the environment variable named in Preferences instead");
      }
      fs.mkdirSync(userData, { recursive: true });
      const tmp = `${file}.tmp`;
      fs.writeFileSync(tmp, safeStorage.encryptString(key), { mode: 0o600 });
      fs.renameSync(tmp, file);
    },
    clear() {
      fs.rmSync(file, { force: true });
    },
  };
}
