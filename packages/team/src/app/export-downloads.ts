/**
 * The page's exports on a team archive (JSONL, Markdown, HTML), downloadable from any `team serve`
 * process. The process that answers exportSession writes the file (the app's own export) and gives
 * the page a one-time /download/ID; the download's ticket is a row of PostgreSQL (export_downloads,
 * migration 006: the id's SHA-256, the person, the export's request, five minutes), so the GET is
 * answered by whichever process behind a load balancer takes it. That process streams the file when
 * it holds it, and otherwise makes the same export again from its own copy of the session, after the
 * same access check. The ticket is taken by its first GET with the token that asked for it (a
 * DELETE: once across all processes); any other token, or that token revoked, finds nothing, as for
 * an expired link.
 */
import type { ServerResponse } from "node:http";
import { sendPreparedDownload } from "@bonsai/backend/server";
import type { MethodInput, MethodOutput } from "@bonsai/ipc";
import type pg from "pg";
import type { Principal } from "../people";
import { keepTicket, ticketHash } from "./download-tickets";

type ExportRequest = MethodInput<"exportSession">;
type ExportAnswer = MethodOutput<"exportSession">;

/** how long an export's link works (as the app's own downloads: backend's DOWNLOAD_TTL_MS) */
export const EXPORT_DOWNLOAD_MS = 5 * 60_000;

/** the file the app prepared under a download id, once */
type TakeDownload = (id: string) => { file: string; fileName: string; mimeType: string; done: () => void } | undefined;

/** the download id an export's url ends with */
export const downloadIdOf = (url: string): string => url.slice(url.lastIndexOf("/") + 1).split("?")[0] ?? "";

export class ExportDownloads {
  constructor(
    private readonly pool: pg.Pool,
    /** the app's export of a session for a person, in this process (its access check included) */
    private readonly exportFor: (principal: Principal, request: ExportRequest) => Promise<ExportAnswer>,
    private readonly take: TakeDownload,
  ) {}

  /** Exports for `principal` and keeps the download's ticket for any process: the app's answer. */
  async export(principal: Principal, request: ExportRequest): Promise<ExportAnswer> {
    const answer = await this.exportFor(principal, request);
    await keepTicket(this.pool, "export_downloads", downloadIdOf(answer.url), principal.tokenId, { person_id: principal.personId, request: JSON.stringify(request) }, EXPORT_DOWNLOAD_MS);
    return answer;
  }

  /** Answers GET /download/`id` for `principal` (the token that asked for it, checked): the file once, or 404 as for an expired link. */
  async serve(response: ServerResponse, id: string, principal: Principal): Promise<void> {
    const row = (
      await this.pool.query<{ request: ExportRequest }>("DELETE FROM export_downloads WHERE id_hash = $1 AND person_id = $2 AND expires_at >= now() RETURNING request", [
        ticketHash(id, principal.tokenId),
        principal.personId,
      ])
    ).rows[0];
    if (row === undefined) return sendPreparedDownload(response, undefined);
    const here = this.take(id);
    if (here !== undefined) return sendPreparedDownload(response, here);
    // prepared by another process: the same export, made here
    const again = await this.exportFor(principal, row.request);
    sendPreparedDownload(response, this.take(downloadIdOf(again.url)));
  }
}
