/** The list of imported sessions: title, cwd, date, entry count. */
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
        No sessions yet. Import pi / oh-my-pi session files (.jsonl) with the Import button, or drop them on this window.
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
            <span className="session-item__title">{s.title || "(untitled session)"}</span>
            <span className="session-item__cwd" title={s.cwd}>
              {s.cwd}
            </span>
            <span className="session-item__meta">
              <time dateTime={s.updatedAt}>{formatDate(s.updatedAt)}</time> · <span data-testid="session-entry-count">{s.entryCount.toLocaleString()}</span> entries
            </span>
            {s.detached ? (
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
