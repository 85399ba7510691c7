/**
 * The HTTP client of a team archive, as `bonsai push` and the CLI's `--archive` use it. Errors the
 * archive answers with keep their code; a network failure becomes one sentence naming the archive.
 */
import { ArchiveError, type ArchiveErrorCode } from "./errors";
import type { ArchivedSession, ArchiveSearchHit } from "./reads";
import type { PushBatch } from "./receive";

function query(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, String(value));
  return params.toString();
}

const CODES = new Set<ArchiveErrorCode>(["schema-too-new", "unreachable", "bad-name", "bad-request", "exists", "not-found", "unauthorized", "forbidden", "too-large", "rate-limited"]);

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

  async sessions(options: { project?: string; limit?: number } = {}): Promise<ArchivedSession[]> {
    return (await this.call("GET", `/api/sessions?${query(options)}`)) as ArchivedSession[];
  }

  async sessionJsonl(id: string, project?: string): Promise<{ sessionId: string; jsonl: string }> {
    return (await this.call("GET", `/api/session?${query({ id, project })}`)) as { sessionId: string; jsonl: string };
  }

  async search(q: string, options: { limit?: number; session?: string; project?: string } = {}): Promise<ArchiveSearchHit[]> {
    return (await this.call("GET", `/api/search?${query({ q, ...options })}`)) as ArchiveSearchHit[];
  }

  async me(): Promise<{ name: string; role: string; projects: string[] }> {
    return (await this.call("GET", "/api/me")) as { name: string; role: string; projects: string[] };
  }

  async call(method: string, path: string, body?: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(this.base + path, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new ArchiveError("unreachable", `cannot reach the team archive at ${this.base}${cause ? ` (${cause})` : ""}`);
    }
    const text = await response.text();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ArchiveError("unreachable", `${this.base} answered ${response.status} with something that is not a team archive`);
    }
    if (!response.ok) {
      const answer = value as { error?: unknown; code?: unknown };
      const code = typeof answer.code === "string" && CODES.has(answer.code as ArchiveErrorCode) ? (answer.code as ArchiveErrorCode) : "unreachable";
      throw new ArchiveError(code, typeof answer.error === "string" ? answer.error : `the archive answered ${response.status}`);
    }
    return value;
  }
}
