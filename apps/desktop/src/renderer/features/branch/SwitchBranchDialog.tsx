/**
 * Switch branch: move the leaf to the chosen node, optionally summarizing the abandoned branch
 * (default from branchSummary.enabled) with custom instructions. Escape or Cancel closes the
 * dialog, and aborts a summary that is being generated (the leaf then stays where it was).
 */
import { useEffect, useRef, useState } from "react";
import { api, errorMessage, failureSentence, isAborted } from "../../lib/api";
import { newRequestId, useBonsai } from "../../state/store";
import { useReadOnly } from "../foreign/ReadOnly";
import { Elapsed } from "../compaction/Elapsed";

export function SwitchBranchDialog() {
  const target = useBonsai((s) => s.switchTarget);
  if (target === null) return null;
  return <Dialog target={target} />;
}

function Dialog({ target }: { target: string }) {
  const sessionId = useBonsai((s) => s.openSessionId);
  const leafId = useBonsai((s) => s.skeleton?.leafId ?? null);
  const defaultSummarize = useBonsai((s) => s.settingsState?.settings.branchSummary.enabled ?? false);
  const preview = useBonsai((s) => {
    const i = s.index?.byId.get(target);
    return i === undefined ? "" : (s.index?.nodes[i]?.preview ?? "");
  });
  const setState = useBonsai((s) => s.setWork);
  const notifyAll = useBonsai((s) => s.notify);
  const notify = (level: "info" | "warning" | "error", message: string) => notifyAll(level, message, sessionId);
  // a Claude Code / Codex session: switching moves Bonsai's leaf only; a summary would be written
  const readOnly = useReadOnly();
  const [summarize, setSummarize] = useState(defaultSummarize && readOnly === null);
  const [instructions, setInstructions] = useState("");
  const [running, setRunning] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const first = useRef<HTMLInputElement>(null);

  useEffect(() => first.current?.focus(), []);

  const close = () => setState({ switchTarget: null });

  const cancel = async () => {
    if (running !== null && sessionId) {
      close();
      try {
        await api().abort({ sessionId, what: "branchSummary" });
        notify("info", "Branch summarization cancelled; the leaf did not move.");
      } catch (err) {
        notify("error", failureSentence(err, "the branch summary goes on"));
      }
      return;
    }
    close();
  };

  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      if (ev.key === "Escape") {
        ev.preventDefault();
        ev.stopPropagation();
        void cancel();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  });

  const go = async () => {
    if (!sessionId) return;
    if (target === leafId) {
      notify("info", "Already at this point");
      close();
      return;
    }
    setError(null);
    setRunning(Date.now());
    try {
      const r = await api().navigate({
        sessionId,
        targetId: target,
        summarize,
        instructions: summarize && instructions.trim() !== "" ? instructions : undefined,
        requestId: newRequestId("nav"),
      });
      if (useBonsai.getState().switchTarget !== target) return; // the user cancelled meanwhile
      setRunning(null);
      if (r.cancelled) {
        notify("info", summarize ? "Branch summarization cancelled; the leaf did not move." : "Navigation cancelled.");
        close();
        return;
      }
      close();
      if (r.editorText) setState({ composerDraft: r.editorText });
      notify("info", r.summaryEntryId ? "Navigated to selected point, with a summary of the abandoned branch" : "Navigated to selected point");
      await useBonsai.getState().reloadSkeleton();
      void useBonsai.getState().refreshUndo();
      const focusId = r.summaryEntryId ?? r.leafId;
      if (focusId) useBonsai.getState().reveal(focusId, r.summaryEntryId ? "inspect" : "context");
    } catch (err) {
      setRunning(null);
      if (isAborted(err)) {
        notify("info", "Branch summarization cancelled; the leaf did not move.");
        close();
      } else setError(errorMessage(err));
    }
  };

  return (
    <div className="bz-modal-backdrop" onClick={() => void cancel()}>
      <div className="bz-modal" role="dialog" aria-modal="true" aria-label="Switch branch" data-testid="switch-dialog" onClick={(e) => e.stopPropagation()}>
        <h3>Switch branch</h3>
        <p>
          Move the leaf to <code>{target}</code>
          {preview ? <> — “{preview.slice(0, 120)}”</> : null}. Selecting a user message puts the leaf on its parent, so the prompt can be
          re-sent differently.
        </p>
        <label className="bz-check">
          <input ref={first} type="checkbox" checked={summarize} onChange={(e) => setSummarize(e.target.checked)} data-testid="switch-summarize" disabled={running !== null || readOnly !== null} />
          Summarize the abandoned branch (attached at the new position so its context keeps what was learned)
        </label>
        {readOnly !== null ? (
          <p className="bz-muted" data-testid="switch-read-only">
            A summary would be written into the session, which Bonsai never does for this agent: switching here only moves Bonsai&apos;s view of the leaf. To summarize, Continue in pi first.
          </p>
        ) : null}
        <label className="bz-label-block">
          Custom instructions for the summary
          <textarea value={instructions} onChange={(e) => setInstructions(e.target.value)} disabled={!summarize || running !== null} rows={3} maxLength={20000} data-testid="switch-instructions" />
        </label>
        {error ? <div className="bz-error" data-testid="switch-error">{error}</div> : null}
        <div className="bz-row">
          <button type="button" onClick={() => void go()} disabled={running !== null} data-testid="switch-confirm">
            {summarize ? "Summarize and switch" : "Switch"}
          </button>
          <button type="button" onClick={() => void cancel()} data-testid="switch-cancel">
            Cancel
          </button>
          {running !== null ? (
            <span className="bz-progress" data-testid="switch-progress">
              <span className="bz-spinner" /> {summarize ? "Summarizing branch… (esc to cancel)" : "Switching…"} <Elapsed since={running} />
            </span>
          ) : null}
        </div>
      </div>
    </div>
  );
}
