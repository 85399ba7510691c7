/**
 * Continue the session: a prompt sent at the leaf to the configured model; the reply streams in
 * (turnDelta events) and threshold / overflow auto-compaction happens live (notifications).
 */
import { useEffect, useState } from "react";
import { api, failureSentence, isAborted } from "../../lib/api";
import { newRequestId, useBonsai } from "../../state/store";
import { Elapsed } from "../compaction/Elapsed";
import { ReadOnlyAction, useReadOnly } from "../foreign/ReadOnly";

export function Composer() {
  const sessionId = useBonsai((s) => s.openSessionId);
  const job = useBonsai((s) => s.job);
  const streaming = useBonsai((s) => s.streaming);
  const setState = useBonsai((s) => s.setWork);
  const notifyAll = useBonsai((s) => s.notify);
  const [text, setText] = useState("");
  const draft = useBonsai((s) => s.composerDraft);
  // a prompt handed over by navigation (re-edit a user message) fills the editor once, if it is empty
  useEffect(() => {
    if (draft === null) return;
    setText((current) => (current.trim() === "" ? draft : current));
    setState({ composerDraft: null });
  }, [draft, setState]);
  const busy = job.kind === "running" && job.what === "prompt";
  const readOnly = useReadOnly() !== null;

  const send = async () => {
    if (!sessionId || text.trim() === "") return;
    const requestId = newRequestId("prompt");
    setState({ job: { kind: "running", what: "prompt", requestId, startedAt: Date.now() }, streaming: "" });
    try {
      const r = await api().prompt({ sessionId, text, requestId });
      setText("");
      setState({ job: { kind: "idle" } });
      if (r.errorMessage) notifyAll("error", `The model answered with an error: ${r.errorMessage}`, sessionId);
      await useBonsai.getState().reloadSkeleton();
    } catch (err) {
      setState({ job: { kind: "idle" } });
      if (isAborted(err)) notifyAll("info", "The reply was stopped.", sessionId);
      else notifyAll("error", failureSentence(err, "the prompt was not sent"), sessionId);
    }
  };

  const stop = async () => {
    if (!sessionId) return;
    try {
      await api().abort({ sessionId, what: "prompt" });
    } catch (err) {
      notifyAll("error", failureSentence(err, "the reply goes on"), sessionId);
    }
  };

  if (!sessionId) return null;
  if (readOnly) {
    return (
      <div className="bz-composer" data-testid="composer">
        <ReadOnlyAction what="A prompt" />
      </div>
    );
  }
  return (
    <div className="bz-composer" data-testid="composer">
      {busy || streaming ? (
        <div className="bz-stream" data-testid="composer-stream">
          {streaming}
          {busy ? (
            <span className="bz-progress">
              <span className="bz-spinner" /> <Elapsed since={job.startedAt} />
            </span>
          ) : null}
        </div>
      ) : null}
      <form
        className="bz-row"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void send();
            }
          }}
          rows={2}
          placeholder="Continue the session at the leaf… (Ctrl+Enter to send)"
          data-testid="composer-input"
          aria-label="Prompt"
          disabled={busy}
        />
        {busy ? (
          <button type="button" onClick={() => void stop()} data-testid="composer-stop">
            Stop
          </button>
        ) : (
          <button type="submit" disabled={text.trim() === ""} data-testid="composer-send">
            Send
          </button>
        )}
      </form>
    </div>
  );
}
