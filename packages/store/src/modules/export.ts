/** Exports: the session's JSONL as its format gives it back, and the Markdown of a path. */
import path from "node:path";
import { sessionTitle } from "@bonsai/core";
import { renderSessionMarkdown } from "@bonsai/formats";
import { readSessionTitles } from "../session-meta";
import { atomicWriteFileSync } from "../atomic-write";
import type { ExportOptions } from "../session-store";
import type { StoreContext } from "./context";
import { formatOfSession } from "./formats";
import { storedHeader } from "./sessions";

/** the same text exportJsonl writes (Claude Code and Codex: the agent's own lines) */
export function renderJsonl(ctx: StoreContext, sessionId: string): string {
  return formatOfSession(ctx, ctx.sessions.require(sessionId).source_format).renderJsonl(ctx, sessionId);
}

export async function exportJsonl(ctx: StoreContext, sessionId: string, file: string): Promise<void> {
  const text = renderJsonl(ctx, sessionId);
  await Promise.resolve();
  atomicWriteFileSync(path.resolve(file), text);
}

export async function exportMarkdown(ctx: StoreContext, sessionId: string, file?: string, options: ExportOptions = {}): Promise<string> {
  const row = ctx.sessions.require(sessionId);
  const entries = ctx.reader.getPath(sessionId, options.leafId === undefined ? row.leaf_id : options.leafId);
  // the title rule (core sessionTitle): the title given in Bonsai, the file's name, its first real prompt
  const title = sessionTitle({ given: readSessionTitles(ctx.db).get(sessionId), name: row.title, firstPrompt: row.first_message });
  const md = renderSessionMarkdown(storedHeader(row), title, entries);
  await Promise.resolve();
  if (file) atomicWriteFileSync(path.resolve(file), md);
  return md;
}

