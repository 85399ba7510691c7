/**
 * A long session's kept open answer, downloaded beside the WebSocket (ipc's LargeAnswers): the call
 * is answered with a `result-at` frame naming ANSWER_PATH + an unguessable id, and the page fetches
 * the gzip PostgreSQL keeps (opened_sessions), sent as it is with `Content-Encoding: gzip`.
 *
 * The download's ticket is a row of PostgreSQL (open_answer_downloads, migration 006), not this
 * process's memory, so that any `team serve` process behind a load balancer answers the GET, whichever
 * took the WebSocket. The id is 32 random bytes, sent only on the caller's socket after the call's
 * access check, stored as the SHA-256 of the id with the socket's token id (download-tickets.ts), so
 * that the GET must carry that same token (`Authorization: Bearer`, as the page's client sends it),
 * which is checked again (a revoked token downloads nothing); taken by its first GET (a DELETE, so
 * once across all processes), good for ANSWER_DOWNLOAD_MS, and refused if the person lost the
 * session's project meanwhile. The ticket names the session's row and entry count: when a push replaced the kept answer
 * in between, the download is refused (410) and the page says to open the session again.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import * as zlib from "node:zlib";
import { ANSWER_PATH, type GzipJson, type LargeAnswers } from "@bonsai/ipc";
import type pg from "pg";
import { ArchiveStore } from "../archive-store";
import type { Principal } from "../people";
import { keepTicket, ticketHash } from "./download-tickets";

/** gzipped values whose JSON has at least this many characters go beside the WebSocket (a kept open answer: from about 300 KB; a 100,000-entry session's: 6.3 MB) */
export const LARGE_ANSWER_CHARS = 256 * 1024;
/** how long a download's address is good for */
export const ANSWER_DOWNLOAD_MS = 60_000;

/** where a kept answer is: the session's row and the entry count it was made for (page-open.ts gives it) */
export interface KeptAnswerSource {
  sessionPk: string;
  entryCount: number;
}

export interface AnswerDownloadsOptions {
  /** default LARGE_ANSWER_CHARS */
  fromChars?: number;
  /** default ANSWER_DOWNLOAD_MS */
  keepMs?: number;
}

const isKeptAnswerSource = (source: unknown): source is KeptAnswerSource =>
  typeof source === "object" && source !== null && typeof (source as KeptAnswerSource).sessionPk === "string" && Number.isInteger((source as KeptAnswerSource).entryCount);

/** an id as park() makes them: 32 bytes, base64url */
const ID = /^[A-Za-z0-9_-]{43}$/u;

export class AnswerDownloads {
  readonly fromChars: number;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: AnswerDownloadsOptions = {},
  ) {
    this.fromChars = options.fromChars ?? LARGE_ANSWER_CHARS;
  }

  /** the LargeAnswers of one connection: its large kept answers become downloads for `principal` */
  for(principal: Principal): LargeAnswers {
    return { fromChars: this.fromChars, park: (packed) => this.park(packed, principal) };
  }

  /** a ticket for downloading the kept answer `packed` names, for `principal`'s token: its path; undefined for a value that is not a kept answer */
  async park(packed: GzipJson, principal: Principal): Promise<string | undefined> {
    if (!isKeptAnswerSource(packed.source)) return undefined;
    const id = randomBytes(32).toString("base64url");
    const { sessionPk, entryCount } = packed.source;
    await keepTicket(this.pool, "open_answer_downloads", id, principal.tokenId, { session_pk: sessionPk, entry_count: entryCount, person_id: principal.personId }, this.options.keepMs ?? ANSWER_DOWNLOAD_MS);
    return `${ANSWER_PATH}${id}`;
  }

  /**
   * Answers a request for ANSWER_PATH + `id` signed in as `principal` (undefined: no valid token):
   * the kept answer, once; 404 for an id unknown, taken, expired, asked for with another token or
   * no longer the person's to read; 410 when the session changed since. `identify` learns the
   * person (for the log line) before the answer is sent.
   */
  async serve(request: IncomingMessage, response: ServerResponse, id: string, principal: Principal | undefined, identify?: (who: string) => void): Promise<void> {
    const text = (status: number, message: string, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers }).end(`${message}\n`);
    };
    if (request.method !== "GET") return text(405, "an answer is downloaded with GET", { allow: "GET" });
    const taken = ID.test(id) && principal !== undefined ? await this.take(id, principal) : undefined;
    if (taken === undefined || !taken.readable) return text(404, "no such answer: it was downloaded already or waited too long");
    identify?.(taken.person);
    if (taken.gzip === null) return text(410, "the session changed while it was being opened: open it again");
    const headers = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff", vary: "accept-encoding" };
    if (/\bgzip\b/iu.test(String(request.headers["accept-encoding"] ?? ""))) {
      response.writeHead(200, { ...headers, "content-encoding": "gzip", "content-length": String(taken.gzip.length) }).end(taken.gzip);
      return;
    }
    response.writeHead(200, headers);
    try {
      await pipeline(Readable.from([taken.gzip]), zlib.createGunzip(), response);
    } catch {
      response.destroy(); // the client sees the answer cut off, never a short one taken as whole
    }
  }

  /**
   * The ticket `id` (asked for with `principal`'s token), deleted so it is taken once, with its
   * person, whether `principal` may still read the session (ArchiveStore's access rule) and the
   * answer (null: replaced since).
   */
  private async take(id: string, principal: Principal): Promise<{ person: string; readable: boolean; gzip: Buffer | null } | undefined> {
    const ticket = (
      await this.pool.query<{ session_pk: string; person: string; fresh: boolean; answer_gzip: Buffer | null }>(
        `WITH taken AS (DELETE FROM open_answer_downloads WHERE id_hash = $1 RETURNING session_pk, entry_count, person_id, expires_at)
         SELECT t.session_pk::text AS session_pk, u.name AS person, t.expires_at >= now() AS fresh, o.answer_gzip
           FROM taken t JOIN people u ON u.id = t.person_id
           LEFT JOIN opened_sessions o ON o.session_pk = t.session_pk AND o.entry_count = t.entry_count`,
        [ticketHash(id, principal.tokenId)],
      )
    ).rows[0];
    if (ticket === undefined) return undefined;
    const readable = ticket.fresh && (await new ArchiveStore(this.pool, principal).mayReadRow(ticket.session_pk));
    return { person: ticket.person, readable, gzip: ticket.answer_gzip };
  }
}
