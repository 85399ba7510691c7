/** Sessions Bonsai never writes (Claude Code, Codex): the calls that would change them are refused up front. */
import { IpcError } from "@bonsai/ipc";
import type { SessionSummary, StoreReads } from "@bonsai/store";
import { requireSession } from "./session-handlers";

/** The session, if it may be changed; a read-only one is a conflict that says to continue it in pi. */
export function requireWritable(store: StoreReads, sessionId: string): SessionSummary {
  const session = requireSession(store, sessionId);
  if (session.readOnly !== null) throw new IpcError("conflict", `${session.readOnly} ("Continue in pi" makes a pi copy that takes changes).`);
  return session;
}
