/** The list of imported sessions: agent (when not pi), title, cwd, date, entry count, compactions. */
import { agentName } from "../lib/agents";
import { useBonsai } from "../state/store";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFormat.format(d);
}

export function SessionList() {
  const sessions = useBonsai((s) => s.sessions);
  const loaded = useBonsai((s) => s.sessionsLoaded);
  const error = useBonsai((s) => s.sessionsError);
  const openId = useBonsai((s) => s.openSessionId);
  const openSession = useBonsai((s) => s.openSession);

  if (!loaded) {
    return (
      <div className="session-list__empty" data-testid="session-list-unavailable">
        {error ? `Sessions cannot be shown: ${error}` : "Loading sessions…"}
      </div>
    );
  }
  if (sessions.length === 0) {
    return (
      <div className="session-list__empty" data-testid="session-list-empty">
        No sessions yet. Import session files (.jsonl) of pi / oh-my-pi, Claude Code or Codex with the Import button, or drop them on this window.
      </div>
    );
  }
  return (
    <ul className="session-list" data-testid="session-list" aria-label="Sessions">
      {sessions.map((s) => (
        <li key={s.id}>
          <button
            type="button"
            className={`session-item${s.id === openId ? " is-open" : ""}`}
            data-testid="session-item"
            data-session-id={s.id}
            aria-current={s.id === openId ? "true" : undefined}
            onClick={() => void openSession(s.id)}
          >
            <span className="session-item__title">
              {s.agent !== "pi" ? (
                <span className={`session-item__agent session-item__agent--${s.agent}`} data-testid="session-agent">
                  {agentName(s.agent)}
                </span>
              ) : null}
              {s.title || "(untitled session)"}
            </span>
            <span className="session-item__cwd" title={s.cwd}>
              {s.cwd}
            </span>
            <span className="session-item__meta">
              <time dateTime={s.updatedAt}>{formatDate(s.updatedAt)}</time> · <span data-testid="session-entry-count">{s.entryCount.toLocaleString()}</span> entries
              {s.compactionCount > 0 ? (
                <>
                  {" "}· <span data-testid="session-compaction-count">{s.compactionCount}</span> compaction{s.compactionCount === 1 ? "" : "s"}
                </>
              ) : null}
            </span>
            {s.readOnly ? (
              <span className="session-item__detached" data-testid="session-read-only" title={s.readOnly}>
                read-only — Continue in pi to change it
              </span>
            ) : s.detached ? (
              <span className="session-item__detached" data-testid="session-detached" title={s.detached}>
                changes kept in Bonsai only — export to write them
              </span>
            ) : null}
          </button>
        </li>
      ))}
    </ul>
  );
}
