/**
 * The HTTP client of a team archive, as `bonsai push` and the CLI's `--archive` use it. Errors the
 * archive answers with keep their code; a network failure becomes one sentence naming the archive.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { AmnesiaOverview } from "@bonsai/core";
import { ARCHIVE_ERROR_CODES, ArchiveError, type ArchiveErrorCode } from "./errors";
import type { ArchiveSearchHit } from "./archive-search";
import type { ArchivedSession } from "./reads";
import type { PushBatch, PushedCommit } from "./receive";
import { commitsOf } from "./commit-shape";

function query(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, String(value));
  return params.toString();
}

/** the header naming the session a `GET /api/session` streams (the id asked for may be a prefix) */
export const SESSION_ID_HEADER = "x-bonsai-session-id";

/** what the session list can be narrowed to: one project, one person's pushes, a text in the title, folder or id */
export interface ArchiveListQuery {
  project?: string;
  pushedBy?: string;
  text?: string;
}

const CODES = new Set<string>(ARCHIVE_ERROR_CODES);

export class ArchiveClient {
  private readonly base: string;

  constructor(
    url: string,
    private readonly token: string,
  ) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ArchiveError("bad-request", `not an archive URL: ${JSON.stringify(url)}`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ArchiveError("bad-request", `an archive URL starts with http:// or https://: ${JSON.stringify(url)}`);
    this.base = parsed.origin + parsed.pathname.replace(/\/+$/, "");
  }

  async has(project: string, sessionId: string): Promise<number> {
    return ((await this.call("POST", "/api/push/has", { project, sessionId })) as { have: number }).have;
  }

  async batch(batch: PushBatch): Promise<{ have: number; added: number }> {
    return (await this.call("POST", "/api/push/batch", batch)) as { have: number; added: number };
  }

  /** One page of the sessions the token may read (newest push first); `after`: the `cursor` of the previous page's last session. */
  async sessions(options: ArchiveListQuery & { limit?: number; after?: string } = {}): Promise<ArchivedSession[]> {
    return (await this.call("GET", `/api/sessions?${query({ ...options })}`)) as ArchivedSession[];
  }

  /** Every session the token may read (up to `total`), page after page of `pageSize` (at most 1000). */
  async *allSessions(options: ArchiveListQuery & { pageSize?: number; total?: number } = {}): AsyncGenerator<ArchivedSession, void, undefined> {
    const { pageSize = 1000, total = Number.POSITIVE_INFINITY, ...filters } = options;
    let after: string | undefined;
    let given = 0;
    for (;;) {
      const limit = Math.min(pageSize, total - given);
      if (limit <= 0) return;
      const page = await this.sessions({ ...filters, limit, ...(after !== undefined ? { after } : {}) });
      for (const session of page) yield session;
      given += page.length;
      const last = page[page.length - 1];
      if (page.length < limit || last === undefined) return;
      after = last.cursor;
    }
  }

  /** The session's JSONL as one string (small sessions; `downloadSessionJsonl` streams it to a file). */
  async sessionJsonl(id: string, project?: string): Promise<{ sessionId: string; jsonl: string }> {
    const response = await this.sessionResponse(id, project);
    return { sessionId: this.sessionIdOf(response), jsonl: await this.bodyText(response) };
  }

  /**
   * Streams the session's JSONL into a new file `<dir>/<session id>.jsonl` (mode 0600), never
   * holding it whole in memory. An answer cut off midway is an error, and the file is removed.
   */
  async downloadSessionJsonl(id: string, dir: string, project?: string): Promise<{ sessionId: string; file: string }> {
    const response = await this.sessionResponse(id, project);
    const sessionId = this.sessionIdOf(response);
    const file = path.join(dir, `${sessionId.replace(/[^A-Za-z0-9._-]/g, "_")}.jsonl`);
    try {
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), fs.createWriteStream(file, { flags: "wx", mode: 0o600 }));
    } catch (error) {
      fs.rmSync(file, { force: true });
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw error;
      throw this.cutOff();
    }
    return { sessionId, file };
  }

  /** The commits the session produced (pushed with a session imported from a checkpoint branch; [] when none), typed as read. */
  async sessionCommits(id: string, project?: string): Promise<PushedCommit[]> {
    const commits = commitsOf(await this.call("GET", `/api/session/commits?${query({ id, project })}`));
    if (commits === null) throw new ArchiveError("unreachable", `${this.base} answered a session's commits in a shape Bonsai does not read; is it a team archive?`);
    return commits;
  }

  private async sessionResponse(id: string, project?: string): Promise<Response> {
    const response = await this.request("GET", `/api/session?${query({ id, project })}`);
    if (!response.ok || !(response.headers.get("content-type") ?? "").startsWith("application/x-ndjson") || response.body === null) {
      throw this.refusal(response, await this.bodyText(response));
    }
    return response;
  }

  private sessionIdOf(response: Response): string {
    const value = response.headers.get(SESSION_ID_HEADER);
    try {
      if (value !== null && value !== "") return decodeURIComponent(value);
    } catch {
      // not percent-encoded: answered below
    }
    throw new ArchiveError("unreachable", `${this.base} answered a session without its id; is it a team archive?`);
  }

  private async bodyText(response: Response): Promise<string> {
    try {
      return await response.text();
    } catch {
      throw this.cutOff();
    }
  }

  private cutOff(): ArchiveError {
    return new ArchiveError("unreachable", `the team archive at ${this.base} stopped answering midway; try again`);
  }

  async search(q: string, options: { limit?: number; session?: string; project?: string } = {}): Promise<ArchiveSearchHit[]> {
    return (await this.call("GET", `/api/search?${query({ q, ...options })}`)) as ArchiveSearchHit[];
  }

  /** The amnesia report over the sessions the token may read (of one project when given). */
  async amnesia(options: { project?: string } = {}): Promise<AmnesiaOverview> {
    return (await this.call("GET", `/api/amnesia?${query(options)}`)) as AmnesiaOverview;
  }

  async me(): Promise<{ name: string; role: string; projects: string[] }> {
    return (await this.call("GET", "/api/me")) as { name: string; role: string; projects: string[] };
  }

  async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await this.request(method, path, body);
    const text = await this.bodyText(response);
    if (!response.ok) throw this.refusal(response, text);
    return this.json(response, text);
  }

  private async request(method: string, path: string, body?: unknown): Promise<Response> {
    try {
      return await fetch(this.base + path, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new ArchiveError("unreachable", `cannot reach the team archive at ${this.base}${cause ? ` (${cause})` : ""}`);
    }
  }

  private json(response: Response, text: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      throw new ArchiveError("unreachable", `${this.base} answered ${response.status} with something that is not a team archive`);
    }
  }

  /** The error an answer that is not the one asked for stands for (its code kept when it is the archive's). */
  private refusal(response: Response, text: string): ArchiveError {
    const answer = this.json(response, text) as { error?: unknown; code?: unknown } | null;
    const code = typeof answer?.code === "string" && CODES.has(answer.code as ArchiveErrorCode) ? (answer.code as ArchiveErrorCode) : "unreachable";
    return new ArchiveError(code, typeof answer?.error === "string" ? answer.error : `the archive answered ${response.status}`);
  }
}
