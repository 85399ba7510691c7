/**
 * Large answers kept for their one download (ipc's LargeAnswers, frames.ts): a call whose value is
 * a large gzipped JSON (a team archive's kept open answer) is answered with a `result-at` frame
 * naming ANSWER_PATH + an unguessable id, and the client fetches it once. The id is the capability:
 * 32 random bytes, sent only on the authenticated socket of the call, taken by its first GET,
 * forgotten after PARKED_FOR_MS. The gzip is sent as it is, `Content-Encoding: gzip`, to a client
 * that takes gzip (every browser and Node's fetch), decompressed on the way for any other.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import * as zlib from "node:zlib";
import { ANSWER_PATH, type LargeAnswers } from "@bonsai/ipc";

/** gzipped values whose JSON has at least this many characters go beside the WebSocket (a kept open answer: from about 300 KB; a 100,000-entry session's: 6.3 MB) */
export const LARGE_ANSWER_CHARS = 256 * 1024;
/** how long a parked answer waits for its download */
export const PARKED_FOR_MS = 60_000;
/** at most this many bytes wait at once; a value that would pass it goes in its frame */
export const PARKED_BYTES_MAX = 256 * 1024 * 1024;

interface Parked {
  gzip: Buffer;
  /** who the answer is for, for the server's log line */
  owner: string;
  timer: NodeJS.Timeout;
}

export interface ParkedAnswersOptions {
  fromChars?: number;
  keepMs?: number;
  maxBytes?: number;
}

export class ParkedAnswers {
  private readonly parked = new Map<string, Parked>();
  private bytes = 0;
  readonly fromChars: number;

  constructor(private readonly options: ParkedAnswersOptions = {}) {
    this.fromChars = options.fromChars ?? LARGE_ANSWER_CHARS;
  }

  /** the LargeAnswers of one connection: its answers are parked under `owner` (a person's name, or "-") */
  for(owner: string): LargeAnswers {
    return { fromChars: this.fromChars, park: (gzip) => this.park(gzip, owner) };
  }

  /** how many answers wait for their download */
  get size(): number {
    return this.parked.size;
  }

  /** keeps `gzip` (a value's gzipped JSON) for one download by `owner`; its path, or undefined when PARKED_BYTES_MAX would be passed */
  park(gzip: Uint8Array, owner = "-"): string | undefined {
    const body = Buffer.from(gzip.buffer, gzip.byteOffset, gzip.byteLength);
    if (this.bytes + body.length > (this.options.maxBytes ?? PARKED_BYTES_MAX)) return undefined;
    const id = randomBytes(32).toString("base64url");
    const timer = setTimeout(() => this.take(id), this.options.keepMs ?? PARKED_FOR_MS);
    timer.unref();
    this.parked.set(id, { gzip: body, owner, timer });
    this.bytes += body.length;
    return `${ANSWER_PATH}${id}`;
  }

  /**
   * Answers a request for ANSWER_PATH + `id`: the parked answer, once; 404 for an id unknown, taken
   * or expired. `identify` learns the answer's owner (for the log line) before it is sent.
   */
  async serve(request: IncomingMessage, response: ServerResponse, id: string, identify?: (owner: string) => void): Promise<void> {
    if (request.method !== "GET") {
      response.writeHead(405, { allow: "GET", "content-type": "text/plain" }).end("an answer is downloaded with GET\n");
      return;
    }
    const parked = this.take(id);
    if (parked === undefined) {
      response.writeHead(404, { "content-type": "text/plain", "cache-control": "no-store" }).end("no such answer: it was downloaded already or waited too long\n");
      return;
    }
    identify?.(parked.owner);
    const takesGzip = /\bgzip\b/iu.test(String(request.headers["accept-encoding"] ?? ""));
    const headers = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff", vary: "accept-encoding" };
    if (takesGzip) {
      response.writeHead(200, { ...headers, "content-encoding": "gzip", "content-length": String(parked.gzip.length) }).end(parked.gzip);
      return;
    }
    response.writeHead(200, headers);
    try {
      await pipeline(Readable.from([parked.gzip]), zlib.createGunzip(), response);
    } catch {
      response.destroy(); // the client sees the answer cut off, never a short one taken as whole
    }
  }

  close(): void {
    for (const id of [...this.parked.keys()]) this.take(id);
  }

  private take(id: string): Parked | undefined {
    const parked = this.parked.get(id);
    if (parked === undefined) return undefined;
    this.parked.delete(id);
    clearTimeout(parked.timer);
    this.bytes -= parked.gzip.length;
    return parked;
  }
}
