/** The local store as what a push reads: its sessions' headers and entries, never changed. */
import { sessionTitle } from "@bonsai/core";
import type { SessionCommit, SessionStore } from "@bonsai/store";
import type { PushSource } from "./push";

export type PushableStore = Pick<SessionStore, "getSession" | "getHeader" | "loadEntries" | "getSessionTitles"> & {
  /** the commits a session produced (sessions imported from a repository's checkpoint branch) */
  getSessionCommits?(sessionId: string): SessionCommit[];
};

export function storePushSource(store: PushableStore): PushSource {
  return {
    session(sessionId) {
      const summary = store.getSession(sessionId);
      if (!summary) throw new Error(`no session ${sessionId} in the local store`);
      const header = store.getHeader(sessionId);
      return {
        sessionId,
        agent: summary.agent,
        // the title rule (core sessionTitle), so the archive names the session as the local list does
        title: sessionTitle({ given: store.getSessionTitles().get(sessionId), name: summary.title, firstPrompt: summary.firstMessage }),
        cwd: summary.cwd,
        header: JSON.stringify(header),
        startedAt: typeof header.timestamp === "string" ? header.timestamp : summary.createdAt,
        commits: store.getSessionCommits?.(sessionId) ?? [],
      };
    },
    entries: (sessionId) => store.loadEntries(sessionId),
  };
}
