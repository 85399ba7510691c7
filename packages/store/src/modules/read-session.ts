/** A stored session as the formats layer reads it (the pi and HTML exports, "Continue in pi", a foreign file's own lines). */
import type { ReadSession } from "@bonsai/formats";
import { storedReadSession } from "../foreign/stored-read-session";
import { storedHeader } from "./sessions";
import type { StoreContext } from "./context";

/** Loads every entry; `leafId` defaults to the session's. */
export function readSession(ctx: StoreContext, sessionId: string, leafId?: string | null): ReadSession {
  const row = ctx.sessions.require(sessionId);
  return storedReadSession({
    format: row.source_format,
    agent: ctx.agents.fields(row).agent,
    header: storedHeader(row),
    entries: ctx.sessions.entries(sessionId),
    leafId: leafId === undefined ? row.leaf_id : leafId,
    title: row.title,
    facts: ctx.agents.foreignFacts(sessionId),
  });
}
