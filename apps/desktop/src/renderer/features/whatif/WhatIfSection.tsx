/**
 * "What if": the compaction and pruning settings tried on the user's own sessions before they are
 * saved. As a value is typed, the backend replays the chosen sessions under it (core runWhatIf) and
 * the charts show the context along each path as the file records it and as the candidate would have
 * kept it, with the compactions of both and the totals; Save applies the candidate to the settings.
 * Mounted at the top of the Preferences pane.
 */
import { useEffect, useMemo, useState } from "react";
import type { BonsaiSettings } from "@bonsai/core";
import type { WhatIfResult } from "@bonsai/ipc";
import { useBonsai } from "../../state/store";
import { formatInt } from "../tree/format";
import { differsFromSaved, formOf, parseForm, type NumberField, type ThresholdMode, type WhatIfForm } from "./form";
import { useWhatIf } from "./useWhatIf";
import { WhatIfChart } from "./WhatIfChart";
import "./whatif.css";
import { useHostReadOnly } from "../foreign/ReadOnly";

const RECENT = 8;

function NumberInput({ field, label, unit, form, error, onChange, disabled }: { field: NumberField; label: string; unit?: string; form: WhatIfForm; error?: string; onChange: (f: NumberField, v: string) => void; disabled?: boolean }) {
  const id = `whatif-${field}`;
  return (
    <label className={`bz-whatif-field ${error ? "bz-whatif-invalid" : ""}`} htmlFor={id}>
      <span>{label}</span>
      <span className="bz-whatif-input">
        <input id={id} type="text" inputMode="numeric" value={form[field]} disabled={disabled} onChange={(e) => onChange(field, e.target.value)} aria-invalid={error !== undefined} data-testid={id} />
        {unit ? <span className="bz-muted">{unit}</span> : null}
      </span>
      {error ? (
        <span className="bz-error" role="alert" data-testid={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </label>
  );
}

function Totals({ result }: { result: WhatIfResult }) {
  const { actual, candidate } = result.totals;
  const row = (label: string, key: keyof typeof actual, testId: string) => {
    const delta = candidate[key] - actual[key];
    return (
      <tr>
        <th scope="row">{label}</th>
        <td>{formatInt(actual[key])}</td>
        <td data-testid={`whatif-total-${testId}`}>{formatInt(candidate[key])}</td>
        <td className={delta === 0 ? "bz-muted" : delta > 0 ? "bz-whatif-up" : "bz-whatif-down"}>{delta === 0 ? "=" : `${delta > 0 ? "+" : "−"}${formatInt(Math.abs(delta))}`}</td>
      </tr>
    );
  };
  return (
    <table className="bz-whatif-totals" data-testid="whatif-totals">
      <thead>
        <tr>
          <th />
          <th>as recorded</th>
          <th>candidate</th>
          <th>change</th>
        </tr>
      </thead>
      <tbody>
        {row("compactions", "compactions", "compactions")}
        {row("peak context (tokens)", "peakContextTokens", "peak")}
        {row("tokens summarized", "summarizedTokens", "summarized")}
        {row("tokens pruned", "prunedTokens", "pruned")}
      </tbody>
    </table>
  );
}

/** How the result sized the summaries (the replay cannot know them). */
function summaryNote(result: WhatIfResult): string {
  const ratio = result.sessions.map((s) => s.summaryEstimate).find((e) => e.source === "ratio");
  const own = result.sessions.some((s) => s.summaryEstimate.source === "session");
  const parts = [own ? "summaries sized like the session's own" : null, ratio?.source === "ratio" ? `summaries at ${Math.round(ratio.ratio * 1000) / 10} % of what they summarize where a session has none` : null];
  return `Estimated: ${parts.filter((p) => p !== null).join("; ")}.`;
}

export function WhatIfSection({ saved }: { saved: BonsaiSettings }) {
  const sessions = useBonsai((s) => s.sessions);
  const openId = useBonsai((s) => s.openSessionId);
  const updateSettings = useBonsai((s) => s.updateSettings);
  const [form, setForm] = useState<WhatIfForm>(() => formOf(saved));
  // a team archive: settings are tried, never saved
  const hostReadOnly = useHostReadOnly();
  const [scope, setScope] = useState<"open" | "recent">(openId ? "open" : "recent");
  const recent = useMemo(() => [...sessions].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, RECENT), [sessions]);
  const [chosen, setChosen] = useState<string[]>(() => recent.slice(0, 1).map((s) => s.id));
  const [saveMessage, setSaveMessage] = useState<string | null>(null);
  useEffect(() => setForm(formOf(saved)), [saved]);

  const parsed = useMemo(() => parseForm(form, saved), [form, saved]);
  const sessionIds = scope === "open" && openId ? [openId] : chosen;
  // each session on its own model's window (as the page shows it), or every session on the one typed
  const [fixedWindow, setFixedWindow] = useState(false);
  const state = useWhatIf(parsed.ok ? parsed.settings : null, sessionIds, fixedWindow ? "fixed" : "session");
  const [updateMs, setUpdateMs] = useState<number | null>(null);
  useEffect(() => {
    // the charts of this result are on screen: how long since its settings were typed
    if (state.result) setUpdateMs(performance.now() - state.inputAt);
  }, [state.result, state.inputAt]);

  const set = (field: NumberField, value: string) => {
    setSaveMessage(null);
    setForm((f) => ({ ...f, [field]: value }));
  };
  const errors = parsed.ok ? {} : parsed.errors;
  const dirty = parsed.ok && differsFromSaved(parsed.settings, saved);
  const save = async () => {
    if (!parsed.ok) return;
    const error = await updateSettings(parsed.patch);
    setSaveMessage(error === null ? "Saved: Bonsai compacts and prunes with these settings from now on." : `Not saved: ${error}`);
  };
  const result = state.result;

  return (
    <fieldset className="bz-whatif" data-testid="whatif">
      <legend>What if… try compaction settings on your sessions</legend>
      <p className="bz-pref-help bz-whatif-intro">
        Change a value: your sessions are replayed with it (no model is called) and the charts show where compactions would have happened. The replay
        keeps what the agent really did; it cannot know how the model would have answered differently. Save applies the values.
      </p>
      <div className="bz-whatif-scope" role="radiogroup" aria-label="Sessions to replay">
        <label>
          <input type="radio" name="whatif-scope" checked={scope === "open" && openId !== null} disabled={!openId} onChange={() => setScope("open")} data-testid="whatif-scope-open" /> the open session
        </label>
        <label>
          <input type="radio" name="whatif-scope" checked={scope === "recent" || !openId} onChange={() => setScope("recent")} data-testid="whatif-scope-recent" /> recent sessions:
        </label>
        {scope === "recent" || !openId ? (
          <span className="bz-whatif-sessions">
            {recent.map((s) => (
              <label key={s.id} title={s.title}>
                <input
                  type="checkbox"
                  checked={chosen.includes(s.id)}
                  onChange={(e) => setChosen((c) => (e.target.checked ? [...c, s.id] : c.filter((id) => id !== s.id)))}
                  data-testid={`whatif-session-${s.id}`}
                />{" "}
                {s.title.length > 32 ? `${s.title.slice(0, 31)}…` : s.title}
              </label>
            ))}
            {recent.length === 0 ? <span className="bz-muted">no sessions yet</span> : null}
          </span>
        ) : null}
      </div>
      <div className="bz-whatif-form">
        <label className="bz-whatif-check">
          <input type="checkbox" checked={form.compactionEnabled} onChange={(e) => setForm((f) => ({ ...f, compactionEnabled: e.target.checked }))} data-testid="whatif-compactionEnabled" /> automatic compaction
        </label>
        <NumberInput field="contextWindow" label={fixedWindow ? "Context window" : "Window of an unknown model"} unit="tokens" form={form} error={errors.contextWindow} onChange={set} />
        <label className="bz-whatif-check" title="Off: each session is replayed on its own model's window, the one What the model sees shows">
          <input type="checkbox" checked={fixedWindow} onChange={(e) => setFixedWindow(e.target.checked)} data-testid="whatif-fixedWindow" /> every session on this window
        </label>
        <NumberInput field="reserveTokens" label="Reserve" unit="tokens" form={form} error={errors.reserveTokens} onChange={set} />
        <NumberInput field="keepRecentTokens" label="Keep recent" unit="tokens" form={form} error={errors.keepRecentTokens} onChange={set} />
        <div className="bz-whatif-field bz-whatif-threshold" role="radiogroup" aria-label="Threshold">
          <span>Compact above</span>
          <span className="bz-whatif-input">
            {(["reserve", "tokens", "percent"] as ThresholdMode[]).map((mode) => (
              <label key={mode}>
                <input type="radio" name="whatif-threshold" checked={form.thresholdMode === mode} onChange={() => setForm((f) => ({ ...f, thresholdMode: mode }))} data-testid={`whatif-threshold-${mode}`} />{" "}
                {mode === "reserve" ? "window − reserve" : mode === "tokens" ? "tokens" : "% of window"}
              </label>
            ))}
          </span>
        </div>
        {form.thresholdMode === "tokens" ? <NumberInput field="thresholdTokens" label="Threshold" unit="tokens" form={form} error={errors.thresholdTokens} onChange={set} /> : null}
        {form.thresholdMode === "percent" ? <NumberInput field="thresholdPercent" label="Threshold" unit="% of the window" form={form} error={errors.thresholdPercent} onChange={set} /> : null}
        <label className="bz-whatif-check">
          <input type="checkbox" checked={form.pruningEnabled} onChange={(e) => setForm((f) => ({ ...f, pruningEnabled: e.target.checked }))} data-testid="whatif-pruningEnabled" /> prune old tool output
        </label>
        <NumberInput field="protectTokens" label="Protect newest" unit="tokens" form={form} error={errors.protectTokens} onChange={set} disabled={!form.pruningEnabled} />
        <NumberInput field="minimumSavings" label="Prune at least" unit="tokens" form={form} error={errors.minimumSavings} onChange={set} disabled={!form.pruningEnabled} />
      </div>
      {errors.form ? (
        <div className="bz-error" role="alert">
          {errors.form}
        </div>
      ) : null}
      {state.error ? (
        <div className="bz-error" role="alert" data-testid="whatif-error">
          {state.error}
        </div>
      ) : null}
      {sessionIds.length === 0 ? <div className="bz-empty">Choose a session to replay.</div> : null}
      {result ? (
        <div className="bz-whatif-result" data-testid="whatif-result" data-update-ms={updateMs === null ? undefined : Math.round(updateMs)} data-compute-ms={Math.round(result.computeMs)} data-running={state.running ? "true" : undefined}>
          <div className="bz-whatif-legend" aria-hidden>
            <span className="bz-whatif-key bz-whatif-key-actual" /> as recorded
            <span className="bz-whatif-key bz-whatif-key-candidate" /> with these settings
            <span className="bz-whatif-key bz-whatif-key-threshold" /> threshold
            <span className="bz-whatif-key bz-whatif-key-window" /> window
            <span className="bz-whatif-dot" /> compaction
          </div>
          {result.sessions.map((s) => (
            <WhatIfChart key={s.sessionId} session={s} threshold={s.threshold} contextWindow={s.contextWindow} />
          ))}
          <Totals result={result} />
          <div className="bz-muted bz-whatif-status" data-testid="whatif-status">
            {summaryNote(result)}{" "}
            {updateMs !== null ? `Updated in ${Math.round(updateMs)} ms (replay ${Math.round(result.computeMs)} ms).` : null}
          </div>
        </div>
      ) : sessionIds.length > 0 && !state.error ? (
        <div className="bz-empty">Replaying…</div>
      ) : null}
      <div className="bz-row">
        <button type="button" disabled={!dirty || hostReadOnly !== null} title={hostReadOnly ?? undefined} onClick={() => void save()} data-testid="whatif-save">
          Save these settings
        </button>
        <button type="button" disabled={!dirty && parsed.ok} onClick={() => setForm(formOf(saved))} data-testid="whatif-reset">
          Back to the saved values
        </button>
        {saveMessage ? <span className="bz-pref-help" data-testid="whatif-save-message">{saveMessage}</span> : null}
      </div>
    </fieldset>
  );
}
