/**
 * The amnesia report across sessions (backend getAmnesiaOverview): every session with a compaction
 * or pruning, worst first, with totals by kind. Each compaction or pruning opens its session at
 * that entry, with the session's own amnesia panel beside it. On a team archive the report covers
 * the projects the person may read, all of them or the one chosen. Titles, ids and names come from
 * session files: React escapes them.
 */
import { useCallback, useEffect, useState } from "react";
import type { AmnesiaOverviewDto } from "@bonsai/ipc";
import { api, errorMessage } from "../../lib/api";
import { useBonsai } from "../../state/store";

type Counts = AmnesiaOverviewDto["totals"]["findings"];
type SessionRow = AmnesiaOverviewDto["sessions"][number];

const KIND_NAMES: Record<keyof Counts, string> = {
  restatedInstruction: "instructions restated",
  recurringError: "errors back",
  reread: "files read again",
  repeatedCall: "calls repeated",
  droppedIdentifier: "identifiers dropped",
};

/** the kinds found, as words ("files read again 6 · identifiers dropped 3"), or that none was */
export function kindsText(counts: Counts): string {
  const parts = (Object.keys(KIND_NAMES) as (keyof Counts)[]).filter((k) => counts[k] > 0).map((k) => `${KIND_NAMES[k]} ${counts[k]}`);
  return parts.length > 0 ? parts.join(" · ") : "no sign of lost context";
}

export function AmnesiaAcrossPanel() {
  const open = useBonsai((s) => s.amnesiaAllOpen);
  if (!open) return null;
  return <AmnesiaAcross />;
}

function AmnesiaAcross() {
  const setUi = useBonsai((s) => s.setUi);
  const projects = useBonsai((s) => s.appInfo?.archive?.projects ?? null);
  const [project, setProject] = useState("");
  const [overview, setOverview] = useState<AmnesiaOverviewDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = useCallback(() => setUi({ amnesiaAllOpen: false }), [setUi]);

  useEffect(() => {
    let current = true;
    setBusy(true);
    setError(null);
    api()
      .getAmnesiaOverview(project === "" ? {} : { project })
      .then((answer) => current && setOverview(answer))
      .catch((err: unknown) => current && setError(errorMessage(err)))
      .finally(() => current && setBusy(false));
    return () => {
      current = false;
    };
  }, [project]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && close();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [close]);

  const openAt = (sessionId: string, entryId: string) => {
    close();
    const s = useBonsai.getState();
    s.setView("tree");
    s.jumpTo(sessionId, entryId, "amnesia");
  };

  const totals = overview?.totals;
  return (
    <div className="bz-modal-backdrop" onClick={close}>
      <div className="bz-modal bz-amnesia-all" role="dialog" aria-modal="true" aria-label="Amnesia across sessions" data-testid="amnesia-all" onClick={(e) => e.stopPropagation()}>
        <div className="bz-amnesia-all-head">
          <h2>Amnesia across sessions</h2>
          {projects ? (
            <label className="bz-amnesia-all-project">
              Project{" "}
              <select value={project} onChange={(e) => setProject(e.target.value)} data-testid="amnesia-all-project">
                <option value="">All my projects</option>
                {projects.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <button type="button" onClick={close} aria-label="Close" data-testid="amnesia-all-close">
            Close
          </button>
        </div>
        <p className="bz-muted bz-amnesia-all-intro">Signs, after each compaction or pruning, that the agent lost something it needed. Sessions with the highest score first; choose a compaction to open its session there.</p>
        {error ? <div className="bz-error" data-testid="amnesia-all-error">{error}</div> : null}
        {busy && !overview ? <div className="bz-muted">Reading the sessions…</div> : null}
        {totals ? (
          <div className="bz-amnesia-all-totals" data-testid="amnesia-all-totals">
            <strong>
              {totals.sessions} {totals.sessions === 1 ? "session" : "sessions"}
            </strong>{" "}
            with {totals.compactions} {totals.compactions === 1 ? "compaction" : "compactions"} and {totals.prunings} {totals.prunings === 1 ? "pruning" : "prunings"}, total score {totals.score}
            <div className="bz-muted">{kindsText(totals.findings)}</div>
          </div>
        ) : null}
        {overview && overview.sessions.length === 0 ? (
          <div className="bz-muted" data-testid="amnesia-all-empty">
            No session {project ? `of ${project} ` : ""}has a compaction or pruning yet.
          </div>
        ) : null}
        <ol className="bz-amnesia-all-sessions" data-testid="amnesia-all-sessions">
          {overview?.sessions.map((row) => <SessionItem key={`${row.project ?? ""}/${row.sessionId}`} row={row} openAt={openAt} />)}
        </ol>
      </div>
    </div>
  );
}

function SessionItem({ row, openAt }: { row: SessionRow; openAt: (sessionId: string, entryId: string) => void }) {
  return (
    <li className="bz-amnesia-all-session" data-testid="amnesia-all-session" data-session-id={row.sessionId}>
      <span className={`bz-badge bz-amnesia-all-score ${row.score > 0 ? "bz-amnesia-badge-hit" : ""}`} title="the session's score: the sum of its compactions' and prunings' scores">
        {row.score}
      </span>
      <div className="bz-amnesia-all-session-head">
        <strong className="bz-amnesia-all-title" title={row.title ?? row.sessionId}>
          {row.title || row.sessionId}
        </strong>
        <span className="bz-muted">
          {row.agent}
          {row.project !== null ? ` · ${row.project}` : ""}
          {row.pushedBy !== null ? ` · pushed by ${row.pushedBy}` : ""}
        </span>
      </div>
      <ul className="bz-amnesia-all-points">
        {row.points.map((p) => (
          <li key={`${p.kind}:${p.entryId}`}>
            <button type="button" className="bz-amnesia-pick" onClick={() => openAt(row.sessionId, p.entryId)} data-testid="amnesia-all-point" data-entry-id={p.entryId}>
              <span className="bz-amnesia-kind">{p.kind === "compaction" ? "Compaction" : "Pruning"}</span> · score {p.score} · {kindsText(p.findings)}
            </button>
          </li>
        ))}
      </ul>
    </li>
  );
}
