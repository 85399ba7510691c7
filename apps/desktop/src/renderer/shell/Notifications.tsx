/**
 * The one stack of messages, docked under the session list: it takes its own room, so it never
 * covers a control. Info goes by itself (~5 s), errors stay until dismissed; only the app's own and
 * the open session's messages show; the same message again is counted (×2), not stacked.
 */
import { useBonsai } from "../state/store";
import { useShallow } from "zustand/react/shallow";

export function Notifications() {
  const notifications = useBonsai(useShallow((s) => s.notifications.filter((n) => n.sessionId === null || n.sessionId === s.openSessionId)));
  const dismiss = useBonsai((s) => s.dismissNotification);
  return (
    <div className="notifications" role="log" aria-live="polite" aria-label="Messages" data-testid="notifications">
      {notifications.map((n) => (
        <div key={n.id} className={`notification notification--${n.level}`} role={n.level === "error" ? "alert" : "status"} data-testid="notification" data-level={n.level}>
          <span className="notification__text">
            {n.message}
            {n.count > 1 ? <span className="notification__count"> ×{n.count}</span> : null}
          </span>
          <button type="button" aria-label="Dismiss this message" onClick={() => dismiss(n.id)} data-testid="notification-dismiss">
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
