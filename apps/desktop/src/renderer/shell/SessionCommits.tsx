/**
 * The commits a session produced (a session imported from a repository's Entire checkpoint
 * branch): "produced N commits" in the session list, and above the open session the commits with
 * their subjects, dates and files. Sessions without any show nothing.
 */
import { useEffect, useState } from "react";
import type { SessionCommit, SessionSummaryDto } from "@bonsai/ipc";
import { api } from "../lib/api";
import { useBonsai } from "../state/store";

/** one getCommitCounts per loaded list (every item of it asks the same promise) */
let asked: { list: readonly SessionSummaryDto[]; counts: Promise<Record<string, number>> } | null = null;
let lastCounts: Record<string, number> = {};

function countsFor(list: readonly SessionSummaryDto[]): Promise<Record<string, number>> {
  if (asked?.list !== list) {
    const counts = api()
      .getCommitCounts()
      .then((r) => (lastCounts = r.counts))
      .catch(() => lastCounts);
    asked = { list, counts };
  }
  return asked.counts;
}

export function producedCommits(n: number): string {
  return `produced ${n.toLocaleString()} commit${n === 1 ? "" : "s"}`;
}

/** "produced N commits" in a session list item (nothing for none). */
export function CommitsCount({ sessionId }: { sessionId: string }) {
  const list = useBonsai((s) => s.sessions);
  const [n, setN] = useState<number>(lastCounts[sessionId] ?? 0);
  useEffect(() => {
    let live = true;
    void countsFor(list).then((c) => live && setN(c[sessionId] ?? 0));
    return () => {
      live = false;
    };
  }, [list, sessionId]);
  if (n === 0) return null;
  return (
    <span className="session-item__meta session-item__commits" data-testid="session-commits-count">
      {producedCommits(n)}
    </span>
  );
}

const FILES_SHOWN = 12;

/** The open session's commits, folded under "produced N commits". */
export function SessionCommits({ sessionId }: { sessionId: string }) {
  const [commits, setCommits] = useState<SessionCommit[]>([]);
  useEffect(() => {
    let live = true;
    setCommits([]);
    api()
      .getSessionCommits({ sessionId })
      .then((r) => live && setCommits(r.commits))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [sessionId]);
  if (commits.length === 0) return null;
  return (
    <details className="session-commits" data-testid="session-commits">
      <summary data-testid="session-commits-summary">{producedCommits(commits.length)}</summary>
      <ol className="session-commits__list">
        {commits.map((c) => (
          <li key={c.sha} data-testid="session-commit">
            <div className="session-commits__head">
              <code title={c.sha}>{c.sha.slice(0, 10)}</code>
              <span className="session-commits__subject" data-testid="session-commit-subject">
                {c.subject}
              </span>
              <time className="bz-muted" dateTime={c.date}>
                {c.date.slice(0, 10)}
              </time>
            </div>
            {c.files.length > 0 ? (
              <ul className="session-commits__files" data-testid="session-commit-files" aria-label={`${c.files.length} files changed`}>
                {c.files.slice(0, FILES_SHOWN).map((f) => (
                  <li key={f}>
                    <code>{f}</code>
                  </li>
                ))}
                {c.files.length > FILES_SHOWN ? <li className="bz-muted">… {c.files.length - FILES_SHOWN} more files</li> : null}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </details>
  );
}
