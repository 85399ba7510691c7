/**
 * Files imported from the window (browser file input, drag-and-drop) arrive in chunks and are
 * written to disk as they come: <dataDir>/uploads/.incoming/<id>.part, with a SHA-256 of the bytes
 * so far. Memory stays at one chunk per call, whatever the file's size. When every byte is there
 * the file becomes <dataDir>/uploads/<hash>-<name> (the same upload twice is one file, one
 * session) and is imported from there; write-through then edits that copy, never the user's
 * original. An upload that is cancelled, left idle, or found not to be a session is deleted.
 */
import { createHash, randomBytes, type Hash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { IpcError, MAX_UPLOAD_BYTES, UPLOAD_CHUNK_BYTES } from "@bonsai/ipc";

/** An upload that receives nothing for this long is dropped (the page went away). */
export const UPLOAD_IDLE_MS = 10 * 60 * 1000;
/** Uploads open at once (each holds a file descriptor and a partial file). */
export const MAX_OPEN_UPLOADS = 32;

export function safeFileName(name: string): string {
  const base = path.basename(name.replace(/\\/g, "/"));
  const cleaned = base.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "").slice(0, 120);
  return cleaned === "" ? "session.jsonl" : cleaned;
}

interface OpenUpload {
  name: string;
  size: number;
  received: number;
  fd: number;
  part: string;
  hash: Hash;
  timer: NodeJS.Timeout;
}

export interface FinishedUpload {
  /** the file as the user named it (no path) */
  name: string;
  /** where it lies now, to import from */
  file: string;
}

export class Uploads {
  readonly dir: string;
  readonly #incoming: string;
  readonly #open = new Map<string, OpenUpload>();

  constructor(
    dataDir: string,
    private readonly idleMs = UPLOAD_IDLE_MS,
  ) {
    this.dir = path.join(dataDir, "uploads");
    this.#incoming = path.join(this.dir, ".incoming");
    // partial files of a previous run cannot be finished: their pages are gone
    fs.rmSync(this.#incoming, { recursive: true, force: true });
  }

  begin(name: string, size: number): { uploadId: string; chunkBytes: number } {
    if (size > MAX_UPLOAD_BYTES) throw new IpcError("invalid_payload", `${name} is larger than the ${MAX_UPLOAD_BYTES / 1024 ** 3} GiB an upload takes`);
    if (this.#open.size >= MAX_OPEN_UPLOADS) throw new IpcError("conflict", `${MAX_OPEN_UPLOADS} uploads are already open; finish or cancel one first`);
    fs.mkdirSync(this.#incoming, { recursive: true });
    const uploadId = randomBytes(18).toString("base64url");
    const part = path.join(this.#incoming, `${uploadId}.part`);
    const fd = fs.openSync(part, "wx", 0o600);
    const upload: OpenUpload = { name, size, received: 0, fd, part, hash: createHash("sha256"), timer: this.#idleTimer(uploadId) };
    this.#open.set(uploadId, upload);
    return { uploadId, chunkBytes: UPLOAD_CHUNK_BYTES };
  }

  /** Writes the next bytes (base64); `offset` must be the bytes received so far. */
  chunk(uploadId: string, offset: number, base64: string): { received: number } {
    const upload = this.#get(uploadId);
    if (offset !== upload.received) throw new IpcError("conflict", `upload ${upload.name}: expected the bytes from ${upload.received}, got ${offset}`);
    const bytes = Buffer.from(base64, "base64");
    if (bytes.length === 0 || bytes.length > UPLOAD_CHUNK_BYTES) throw new IpcError("invalid_payload", `upload ${upload.name}: a chunk holds 1 to ${UPLOAD_CHUNK_BYTES} bytes`);
    if (upload.received + bytes.length > upload.size) {
      this.cancel(uploadId);
      throw new IpcError("invalid_payload", `upload ${upload.name}: more bytes than the ${upload.size} announced; the upload was dropped`);
    }
    try {
      fs.writeSync(upload.fd, bytes, 0, bytes.length, upload.received);
    } catch (err) {
      this.cancel(uploadId);
      throw new IpcError("unavailable", `upload ${upload.name} could not be written: ${err instanceof Error ? err.message : String(err)}; the upload was dropped`);
    }
    upload.hash.update(bytes);
    upload.received += bytes.length;
    upload.timer.refresh();
    return { received: upload.received };
  }

  /** Every byte arrived: the file moves to its final name; throws when bytes are missing. */
  finish(uploadId: string): FinishedUpload {
    const upload = this.#get(uploadId);
    if (upload.received !== upload.size) throw new IpcError("conflict", `upload ${upload.name} is incomplete: ${upload.received} of ${upload.size} bytes arrived`);
    this.#close(uploadId, upload);
    const file = path.join(this.dir, `${upload.hash.digest("hex").slice(0, 16)}-${safeFileName(upload.name)}`);
    if (fs.existsSync(file)) fs.rmSync(upload.part, { force: true });
    else fs.renameSync(upload.part, file);
    return { name: upload.name, file };
  }

  /** Drops an open upload and deletes its bytes; false when there was none. */
  cancel(uploadId: string): boolean {
    const upload = this.#open.get(uploadId);
    if (!upload) return false;
    this.#close(uploadId, upload);
    fs.rmSync(upload.part, { force: true });
    return true;
  }

  /** An imported upload that is not a session (or failed): delete it, unless it is not one of ours. */
  discard(file: string): void {
    if (path.dirname(file) === this.dir) fs.rmSync(file, { force: true });
  }

  /** uploads still open */
  get openCount(): number {
    return this.#open.size;
  }

  close(): void {
    for (const id of [...this.#open.keys()]) this.cancel(id);
  }

  #get(uploadId: string): OpenUpload {
    const upload = this.#open.get(uploadId);
    if (!upload) throw new IpcError("not_found", "no such upload (it was finished, cancelled, or dropped after being idle)");
    return upload;
  }

  #close(uploadId: string, upload: OpenUpload): void {
    clearTimeout(upload.timer);
    this.#open.delete(uploadId);
    try {
      fs.closeSync(upload.fd);
    } catch {
      // already closed
    }
  }

  #idleTimer(uploadId: string): NodeJS.Timeout {
    const timer = setTimeout(() => this.cancel(uploadId), this.idleMs);
    timer.unref();
    return timer;
  }
}
