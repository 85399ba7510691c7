/**
 * Switch branch: move the leaf to the chosen node, optionally summarizing the abandoned branch
 * (default from branchSummary.enabled) with custom instructions. Escape or Cancel closes the
 * dialog, and aborts a summary that is being generated (the leaf then stays where it was).
 */
import { useEffect, useRef, useState } from "react";
import { api } from "../../lib/api";
import { useBonsai } from "../../state/store";
import { errorMessage, newRequestId, useExplorer } from "../store";
import { useReadOnly } from "../foreign/ReadOnly";
import { Elapsed } from "../compaction/Elapsed";

export function SwitchBranchDialog() {
  const target = useExplorer((s) => s.switchTarget);
  if (target === null) return null;
  return <Dialog target={target} />;
}

function Dialog({ target }: { target: string }) {
  const sessionId = useExplorer((s) => s.sessionId);
  const leafId = useExplorer((s) => s.skeleton?.leafId ?? null);
  const defaultSummarize = useBonsai((s) => s.settingsState?.settings.branchSummary.enabled ?? false);
  const preview = useExplorer((s) => {
    const i = s.index?.byId.get(target);
    return i === undefined ? "" : (s.index?.nodes[i]?.preview ?? "");
  });
  const setState = useExplorer((s) => s.setState);
  const notify = useExplorer((s) => s.notify);
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
        notify("warning", "Branch summarization cancelled");
      } catch (err) {
        notify("error", `Abort failed: ${errorMessage(err)}`);
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
      if (useExplorer.getState().switchTarget !== target) return; // the user cancelled meanwhile
      setRunning(null);
      if (r.cancelled) {
        notify("warning", summarize ? "Branch summarization cancelled" : "Navigation cancelled");
        close();
        return;
      }
      close();
      if (r.editorText) setState({ composerDraft: r.editorText });
      notify("info", r.summaryEntryId ? "Navigated to selected point, with a summary of the abandoned branch" : "Navigated to selected point");
      await useExplorer.getState().reloadSkeleton();
      const focusId = r.summaryEntryId ?? r.leafId;
      if (focusId) useExplorer.getState().reveal(focusId, r.summaryEntryId ? "inspect" : "context");
    } catch (err) {
      setRunning(null);
      if ((err as { code?: string }).code === "aborted") {
        notify("warning", "Branch summarization cancelled");
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
