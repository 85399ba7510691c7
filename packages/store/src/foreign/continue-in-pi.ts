/**
 * "Continue in pi": a stored session's path (any agent) as a new pi v3 session in pi's own sessions
 * folder for its cwd — where pi lists and resumes it — imported into the store, so that Bonsai can
 * compact, prune and branch the copy like any pi session. The source is never written.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import { toPiSession } from "@bonsai/formats";
import { piSessionFile } from "../paths";
import { StoreError, type PiCopy, type PiCopyOptions, type SessionStore } from "../session-store";
import { createSessionFile } from "../source/new-session-file";

export async function continueInPi(store: SessionStore, sessionId: string, options: PiCopyOptions = {}): Promise<PiCopy> {
  const summary = store.getSession(sessionId);
  if (!summary) throw new StoreError(`no session ${sessionId} in the store`);
  const leafId = options.leafId === undefined ? summary.leafId : options.leafId;
  if (leafId !== null && !store.getEntry(sessionId, leafId)) throw new StoreError(`Entry ${leafId} not found`);
  const read = store.readSession(sessionId, leafId);
  const newId = randomUUID();
  const now = new Date().toISOString();
  const exported = toPiSession(read, { sessionId: newId, now, leafId, parentSession: summary.sourcePath ?? sessionId });
  const file = piSessionFile(read.header.cwd, newId, now, options.env ?? process.env, options.home ?? os.homedir());
  createSessionFile(file, exported.text);
  const report = await store.importFile(file);
  if (report.sessionId === null || (report.status !== "imported" && report.status !== "reimported")) {
    throw new StoreError(`the pi copy was written to ${file} but could not be imported: ${report.message}`);
  }
  return { sessionId: report.sessionId, file, entryCount: exported.entries.length, omitted: exported.omitted };
}
