/**
 * The preferences pane: every compaction, branch-summary, retry and model setting with its
 * default, unit and explanation; the API key (write-only) with Test connection; folders; theme.
 * A valid change is saved at once (the backend validates again and persists it); an invalid one
 * is refused inline and nothing is saved.
 */
import { useEffect, useState } from "react";
import type { SettingsState } from "@bonsai/ipc";
import { api } from "../../lib/api";
import { errorMessage } from "../../lib/api";
import { useBonsai } from "../../state/store";
import { defaultOf, FIELDS, formatField, getField, parseField, patchFor } from "./fields";
// issue 14: the what-if replay of compaction settings (features/whatif)
import { WhatIfSection } from "../whatif/WhatIfSection";
import { useHostReadOnly } from "../foreign/ReadOnly";
import type { FieldSpec, FieldValue } from "./fields";
import { HostFolderSetting, HostSettingReadOnly } from "./HostSetting";

/** A row of the pane: host settings as the host's rules say (HostSetting.tsx), the rest editable. */
function Row({ spec, state }: { spec: FieldSpec; state: SettingsState }) {
  if (state.hostSettings.fields.includes(spec.path)) {
    if (state.hostSettings.changeWith === "cli") return <HostSettingReadOnly spec={spec} state={state} />;
    if (spec.path === "hooksDir" || spec.path === "sessionDirs") return <HostFolderSetting spec={spec} state={state} />;
  }
  return <SettingRow spec={spec} state={state} />;
}

function issueMessage(err: unknown): string {
  const issues = (err as { issues?: Array<{ message: string }> }).issues;
  return issues && issues.length > 0 ? issues.map((i) => i.message).join("; ") : errorMessage(err);
}

function SettingRow({ spec, state }: { spec: FieldSpec; state: SettingsState }) {
  const stored = getField(state.settings, spec.path);
  // a switch or choice shows the new value at once; it reverts if the backend refuses it
  const [pending, setPending] = useState<FieldValue | null>(null);
  const value = pending ?? stored;
  const [text, setText] = useState(() => formatField(spec, value));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => setText(formatField(spec, stored)), [spec, stored]);

  const commit = async (raw: string | boolean) => {
    const parsed = parseField(spec, raw);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(null);
    if (JSON.stringify(parsed.value) === JSON.stringify(stored)) return;
    if (spec.kind === "bool" || spec.kind === "theme") setPending(parsed.value);
    try {
      const next = await api().setSettings({ patch: patchFor(spec.path, parsed.value) });
      useBonsai.setState({ settingsState: next });
      setSaved(true);
      setTimeout(() => setSaved(false), 1500);
    } catch (err) {
      setError(issueMessage(err));
    } finally {
      setPending(null);
    }
  };

  const id = `pref-${spec.path}`;
  const def = defaultOf(spec.path);
  const defText = spec.kind === "bool" ? (def ? "on" : "off") : spec.kind === "list" ? ((def as string[]).length ? (def as string[]).join(", ") : "none") : def === "" ? "empty" : String(def);
  let input;
  if (spec.kind === "bool") {
    input = <input id={id} type="checkbox" checked={value as boolean} onChange={(e) => void commit(e.target.checked)} data-testid={id} />;
  } else if (spec.kind === "theme") {
    input = (
      <select id={id} value={value as string} onChange={(e) => void commit(e.target.value)} data-testid={id}>
        <option value="system">system</option>
        <option value="light">light</option>
        <option value="dark">dark</option>
      </select>
    );
  } else if (spec.kind === "list") {
    input = <textarea id={id} rows={2} value={text} onChange={(e) => setText(e.target.value)} onBlur={() => void commit(text)} data-testid={id} aria-invalid={error !== null} />;
  } else {
    input = (
      <input
        id={id}
        type="text"
        inputMode={spec.kind === "int" ? "numeric" : undefined}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (error) setError(null);
        }}
        onBlur={() => void commit(text)}
        onKeyDown={(e) => {
          if (e.key === "Enter") void commit(text);
        }}
        data-testid={id}
        aria-invalid={error !== null}
      />
    );
  }
  return (
    <div className={`bz-pref ${error ? "bz-pref-invalid" : ""}`}>
      <label htmlFor={id}>{spec.label}</label>
      <div className="bz-pref-input">
        {input}
        {spec.unit ? <span className="bz-muted">{spec.unit}</span> : null}
        {saved ? <span className="bz-saved" data-testid={`${id}-saved`}>saved</span> : null}
      </div>
      <div className="bz-pref-help">
        {spec.help} <span className="bz-muted">Default: {defText}.</span>
        {state.hostSettings.fields.includes(spec.path) ? " Bonsai asks you to confirm a change (it decides where your key and sessions go)." : null}
      </div>
      {error ? (
        <div className="bz-error" data-testid={`${id}-error`} role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

function ApiKey({ state }: { state: SettingsState }) {
  const setSettings = (settingsState: SettingsState) => useBonsai.setState({ settingsState });
  const [key, setKey] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const save = async () => {
    try {
      setSettings(await api().setApiKey({ key }));
      setKey("");
      setMessage("Key stored.");
    } catch (err) {
      setMessage(issueMessage(err));
    }
  };
  const clear = async () => {
    try {
      setSettings(await api().clearApiKey());
      setMessage("Stored key removed.");
    } catch (err) {
      setMessage(issueMessage(err));
    }
  };
  const test = async () => {
    setTesting(true);
    try {
      const r = await api().testConnection();
      setMessage(r.ok ? `Connected to ${r.model} in ${Math.round(r.latencyMs)} ms.` : `Connection failed: ${r.message}`);
    } catch (err) {
      setMessage(`Connection failed: ${errorMessage(err)}`);
    } finally {
      setTesting(false);
    }
  };
  return (
    <div className="bz-pref">
      <label htmlFor="pref-apiKey">API key</label>
      <div className="bz-pref-input">
        <input id="pref-apiKey" type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} placeholder={state.hasApiKey ? "•••••••• (set)" : "not set"} data-testid="pref-apiKey" />
        <button type="button" disabled={key.trim() === ""} onClick={() => void save()} data-testid="pref-apiKey-save">
          Store
        </button>
        {state.apiKeySource === state.apiKeyStorage ? (
          <button type="button" onClick={() => void clear()} data-testid="pref-apiKey-clear">
            Remove
          </button>
        ) : null}
        <button type="button" onClick={() => void test()} disabled={testing} data-testid="pref-test-connection">
          {testing ? "Testing…" : "Test connection"}
        </button>
      </div>
      <div className="bz-pref-help">
        Write-only: stored in {state.apiKeyStorage === "keychain" ? "the OS keychain" : "a private file in the data folder"}, never shown again.{" "}
        <span data-testid="pref-apiKey-status">{state.hasApiKey ? `A key is available (from ${state.apiKeySource}).` : "No key available."}</span>
      </div>
      {message ? <div className="bz-pref-help" data-testid="pref-apiKey-message">{message}</div> : null}
    </div>
  );
}

export function Preferences() {
  const open = useBonsai((s) => s.prefsOpen);
  const state = useBonsai((s) => s.settingsState);
  const loadSettings = useBonsai((s) => s.loadSettings);
  const setState = useBonsai((s) => s.setUi);
  // a team archive: the settings are shown, not changed (what-if still tries others without saving them)
  const hostReadOnly = useHostReadOnly();
  useEffect(() => {
    if (open) void loadSettings();
  }, [open, loadSettings]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setState({ prefsOpen: false });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, setState]);
  if (!open) return null;
  const groups = [...new Set(FIELDS.map((f) => f.group))];
  return (
    <div className="bz-modal-backdrop" onClick={() => setState({ prefsOpen: false })}>
      <div className="bz-modal bz-prefs" role="dialog" aria-modal="true" aria-label="Preferences" data-testid="preferences" onClick={(e) => e.stopPropagation()}>
        <div className="bz-row bz-spread">
          <h2>Preferences</h2>
          <button type="button" onClick={() => setState({ prefsOpen: false })} data-testid="preferences-close">
            Close
          </button>
        </div>
        {hostReadOnly !== null ? (
          <p className="bz-prefs-note" data-testid="prefs-read-only">
            {hostReadOnly.charAt(0).toUpperCase() + hostReadOnly.slice(1)}. The settings are shown here and do not change; what-if below tries others on your sessions without saving them.
          </p>
        ) : state?.hostSettings.changeWith === "cli" ? (
          <p className="bz-prefs-note" data-testid="prefs-host-note">
            Settings marked <span className="bz-host-badge">host</span> reach this machine: folders whose code runs or whose files are read, the variable that holds the API key, where the key and your sessions
            are sent. The browser page shows them but cannot change them; they change on the host with <code>bonsai config set</code> (kept in {state.hostSettings.database}).
          </p>
        ) : null}
        {/* issue 14: what-if above the settings it tries */}
        {state ? <WhatIfSection saved={state.settings} /> : null}
        {state
          ? groups.map((g) => (
              <fieldset key={g} disabled={hostReadOnly !== null} title={hostReadOnly ?? undefined}>
                <legend>{g}</legend>
                {FIELDS.filter((f) => f.group === g).map((f) => (
                  <Row key={f.path} spec={f} state={state} />
                ))}
                {g === "Model provider" && hostReadOnly === null ? <ApiKey state={state} /> : null}
              </fieldset>
            ))
          : <div className="bz-empty">Loading…</div>}
      </div>
    </div>
  );
}
