/**
 * Exports as downloads (browser mode): the session is written to a temporary file in
 * <dataDir>/downloads and a one-time id is handed to the page; `bonsai serve` streams that file
 * once at /download/<id> (with the page's token) and deletes it. Nothing is ever written where the
 * page says, and the export never travels as one big string through the WebSocket.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

/** The URL path of a prepared download on `bonsai serve` (the page adds `?token=`). */
export const DOWNLOAD_PATH = "/download/";

/** A prepared download is kept this long for the page to fetch it. */
export const DOWNLOAD_TTL_MS = 5 * 60 * 1000;

export interface PreparedDownload {
  file: string;
  fileName: string;
  mimeType: string;
}

export class Downloads {
  readonly #dir: string;
  readonly #ready = new Map<string, PreparedDownload & { timer: NodeJS.Timeout }>();

  constructor(
    dataDir: string,
    private readonly ttlMs = DOWNLOAD_TTL_MS,
  ) {
    this.#dir = path.join(dataDir, "downloads");
    // left by a previous run: nobody can fetch them any more
    fs.rmSync(this.#dir, { recursive: true, force: true });
  }

  /** Writes the export with `write(file)` and returns the id to fetch it with. */
  async prepare(fileName: string, mimeType: string, write: (file: string) => Promise<unknown>): Promise<string> {
    fs.mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    const id = randomBytes(24).toString("base64url");
    const file = path.join(this.#dir, id);
    try {
      await write(file);
    } catch (err) {
      fs.rmSync(file, { force: true });
      throw err;
    }
    const timer = setTimeout(() => this.#drop(id), this.ttlMs);
    timer.unref();
    this.#ready.set(id, { file, fileName, mimeType, timer });
    return id;
  }

  /** The download for `id`, once: the caller streams the file and then calls `done`. */
  take(id: string): (PreparedDownload & { done: () => void }) | undefined {
    const entry = this.#ready.get(id);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.#ready.delete(id);
    const { file, fileName, mimeType } = entry;
    return { file, fileName, mimeType, done: () => fs.rmSync(file, { force: true }) };
  }

  close(): void {
    for (const id of [...this.#ready.keys()]) this.#drop(id);
  }

  #drop(id: string): void {
    const entry = this.#ready.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.#ready.delete(id);
    fs.rmSync(entry.file, { force: true });
  }
}
