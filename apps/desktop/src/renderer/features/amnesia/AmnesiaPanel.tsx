/**
 * The Amnesia panel: for each compaction and pruning of the open session, the signs that the agent
 * lost something it needed (core amnesiaReport), with its score. Picking a finding highlights its
 * entries in the tree and reveals the latest; each entry id reveals that entry.
 */
import { useEffect } from "react";
import type { AmnesiaFindingDto, AmnesiaReportDto } from "@bonsai/ipc";
import { useBonsai } from "../../state/store";
import "./amnesia.css";

const KIND_TITLES: Record<AmnesiaFindingDto["kind"], string> = {
  reread: "file read again",
  repeatedCall: "call repeated",
  recurringError: "error came back",
  restatedInstruction: "instruction restated",
  droppedIdentifier: "missing from the summary",
};

function Findings({ findings }: { findings: readonly AmnesiaFindingDto[] }) {
  const pick = useBonsai((s) => s.pickAmnesia);
  const picked = useBonsai((s) => s.amnesia.picked);
  const reveal = useBonsai((s) => s.reveal);
  if (findings.length === 0) return <div className="bz-muted">No sign that the agent lost context here.</div>;
  return (
    <ul className="bz-amnesia-findings">
      {findings.map((f, i) => (
        <li key={i} className={`bz-amnesia-finding ${picked === f ? "bz-amnesia-picked" : ""}`}>
          <button type="button" className="bz-amnesia-pick" onClick={() => pick(f)} data-testid="amnesia-finding" data-kind={f.kind} title="Highlight these entries in the tree">
            <span className={`bz-amnesia-kind bz-amnesia-kind-${f.kind}`}>{KIND_TITLES[f.kind]}</span> {f.detail}
          </button>
          <span className="bz-amnesia-entries">
            {f.entryIds.map((id, k) => (
              <button key={`${id}-${k}`} type="button" className="bz-link" onClick={() => reveal(id, "amnesia")} data-testid="amnesia-entry">
                {id}
              </button>
            ))}
          </span>
        </li>
      ))}
    </ul>
  );
}

function Report({ report }: { report: AmnesiaReportDto }) {
  const selected = useBonsai((s) => s.selectedId);
  const reveal = useBonsai((s) => s.reveal);
  useEffect(() => {
    // a compaction chosen in the tree (its badge) comes into view
    if (selected) document.querySelector(`[data-amnesia-of="${CSS.escape(selected)}"]`)?.scrollIntoView({ block: "nearest" });
  }, [selected]);
  if (report.compactions.length === 0 && report.prunings.length === 0) {
    return <div className="bz-empty" data-testid="amnesia-none">This session has no compaction or pruning to look at.</div>;
  }
  return (
    <>
      {report.compactions.map((c) => (
        <section key={c.compactionId} className={`bz-amnesia-item ${selected === c.compactionId ? "bz-amnesia-current" : ""}`} data-testid="amnesia-compaction" data-amnesia-of={c.compactionId}>
          <h4>
            Compaction{" "}
            <button type="button" className="bz-link" onClick={() => reveal(c.compactionId, "amnesia")}>
              {c.compactionId}
            </button>{" "}
            <span className={`bz-badge ${c.score > 0 ? "bz-amnesia-badge-hit" : ""}`} data-testid="amnesia-score">
              score {c.score}
            </span>
          </h4>
          <Findings findings={c.findings} />
        </section>
      ))}
      {report.prunings.map((p) => (
        <section key={`${p.atEntryId}-${p.prunedAt}`} className="bz-amnesia-item" data-testid="amnesia-pruning" data-amnesia-of={p.atEntryId}>
          <h4>
            Pruning of {p.prunedEntryIds.length} output{p.prunedEntryIds.length === 1 ? "" : "s"} after{" "}
            <button type="button" className="bz-link" onClick={() => reveal(p.atEntryId, "amnesia")}>
              {p.atEntryId}
            </button>{" "}
            <span className={`bz-badge ${p.score > 0 ? "bz-amnesia-badge-hit" : ""}`}>score {p.score}</span>
          </h4>
          <Findings findings={p.findings} />
        </section>
      ))}
    </>
  );
}

export function AmnesiaPanel() {
  const sessionId = useBonsai((s) => s.openSessionId);
  const { report, status, error } = useBonsai((s) => s.amnesia);
  const load = useBonsai((s) => s.loadAmnesia);
  const mine = useBonsai((s) => s.amnesia.sessionId === sessionId);
  const setUi = useBonsai((s) => s.setUi);
  useEffect(() => {
    if (sessionId) void load(sessionId);
  }, [sessionId, load]);
  return (
    <div className="bz-panel bz-amnesia" data-testid="amnesia-panel">
      <h3>What the agent may have lost</h3>
      <p className="bz-pref-help">
        After each compaction (and pruning): files read again, calls repeated with the same arguments, errors that came back after being fixed,
        instructions the user had to repeat, and names used later that the summary left out. Score = 3 × restated instructions + 3 × recurring errors
        + 2 × re-reads + 2 × repeated calls + 1 × missing names, each kind counted up to 5. Click a finding to mark its entries in the tree.{" "}
        <button type="button" className="bz-link bz-link-text" onClick={() => setUi({ amnesiaAllOpen: true })} data-testid="amnesia-open-all" title="Every session with a compaction or pruning, worst first (Shift+A)">
          Across all sessions…
        </button>
      </p>
      {!mine || status === "loading" || status === "idle" ? <div className="bz-empty">Reading the session…</div> : null}
      {mine && status === "failed" ? <div className="bz-error">Could not compute the report: {error}</div> : null}
      {mine && report && status !== "failed" ? <Report report={report} /> : null}
    </div>
  );
}
