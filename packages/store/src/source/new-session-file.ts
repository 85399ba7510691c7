/**
 * A new session file in an agent's folder ("Continue in pi" writes pi's copy there): written to a
 * temporary file in the same folder, fsynced, then linked into place, so that it never replaces a
 * file (an existing name is refused) and a crash leaves no half-written session; the folder is
 * fsynced after the link. Folders that do not exist yet are created (pi creates them the same way).
 */
import fs from "node:fs";
import path from "node:path";
import { StoreError } from "../session-store";
import { fsyncDir, removeTemp, tempPathFor, writeSyncedTemp } from "./temp-files";
import { asWriteFailure } from "./write-failure";

export function createSessionFile(file: string, text: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = tempPathFor(file, "new");
  try {
    writeSyncedTemp(tmp, text);
    try {
      fs.linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new StoreError(`${file} exists already: nothing was written`);
      throw err;
    }
  } catch (err) {
    throw asWriteFailure(err); // a full disk: the temporary file goes, nothing is linked
  } finally {
    removeTemp(tmp);
  }
  fsyncDir(dir);
}
