/**
 * A setting that reaches the host (HOST_SETTINGS: the hooks folder, session folders, the API key's
 * variable, the model and summarizer addresses). Browser mode shows it read-only with the command
 * that changes it on the host; the desktop app changes a folder only with its folder picker (and
 * may remove one), a variable or an address after the main process's confirmation.
 */
import { useState } from "react";
import { hostSetting, hostSettingCommand, type SettingsState } from "@bonsai/ipc";
import { api } from "../../lib/api";
import { useBonsai } from "../../state/store";
import { errorMessage } from "../../lib/api";
import { formatField, getField, type FieldSpec } from "./fields";

function HostValue({ id, spec, state }: { id: string; spec: FieldSpec; state: SettingsState }) {
  const value = getField(state.settings, spec.path);
  const text = formatField(spec, value);
  return spec.kind === "list" ? (
    <textarea id={id} rows={Math.max(1, (value as string[]).length)} value={text} readOnly data-testid={id} placeholder="none" />
  ) : (
    <input id={id} type="text" value={text} readOnly data-testid={id} placeholder={spec.path === "hooksDir" ? "default: the data folder's hooks/" : "empty"} />
  );
}

/** Browser mode: read-only, and how to change it on the host. */
export function HostSettingReadOnly({ spec, state }: { spec: FieldSpec; state: SettingsState }) {
  const id = `pref-${spec.path}`;
  const setting = hostSetting(spec.path);
  return (
    <div className="bz-pref bz-pref-host" data-testid={`${id}-row`}>
      <label htmlFor={id}>
        {spec.label} <span className="bz-host-badge">host</span>
      </label>
      <div className="bz-pref-input">
        <HostValue id={id} spec={spec} state={state} />
      </div>
      <div className="bz-pref-help">
        {spec.help} Read-only here: {setting?.why}. Change it on the host with <code data-testid={`${id}-command`}>{setting ? hostSettingCommand(state.hostSettings.command, setting) : ""}</code>
        {spec.path === "hooksDir" ? ", then restart bonsai serve (hook modules load when it starts)." : "; it applies from the next action."}
      </div>
    </div>
  );
}

/** The desktop app: folders through the folder picker; they can be removed here. */
export function HostFolderSetting({ spec, state }: { spec: FieldSpec; state: SettingsState }) {
  const id = `pref-${spec.path}`;
  const [error, setError] = useState<string | null>(null);
  const field = spec.path === "hooksDir" ? "hooksDir" : "sessionDirs";
  const folders = field === "hooksDir" ? [state.settings.hooksDir].filter((d) => d !== "") : state.settings.sessionDirs;
  const run = async (call: () => Promise<SettingsState | null>) => {
    try {
      const next = await call();
      if (next) useBonsai.setState({ settingsState: next });
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const choose = () => run(async () => (await api().pickSettingsFolder({ field })).state);
  const remove = (dir: string) =>
    run(() => api().setSettings({ patch: field === "hooksDir" ? { hooksDir: "" } : { sessionDirs: state.settings.sessionDirs.filter((d) => d !== dir) } }));
  return (
    <div className="bz-pref bz-pref-host" data-testid={`${id}-row`}>
      <label>{spec.label}</label>
      <div className="bz-pref-folders">
        {folders.length === 0 ? <span className="bz-muted">{field === "hooksDir" ? "the data folder's hooks/ (default)" : "none besides the agents' folders"}</span> : null}
        {folders.map((dir) => (
          <div key={dir} className="bz-pref-folder">
            <code>{dir}</code>
            <button type="button" onClick={() => void remove(dir)} aria-label={`Remove ${dir}`}>
              {field === "hooksDir" ? "Use default" : "Remove"}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => void choose()} data-testid={`${id}-choose`}>
          {field === "hooksDir" ? "Choose folder…" : "Add folder…"}
        </button>
      </div>
      <div className="bz-pref-help">
        {spec.help} {field === "hooksDir" ? "Hook modules load when Bonsai starts: restart it after choosing a folder." : "Chosen with the system's folder picker."}
      </div>
      {error ? (
        <div className="bz-error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}
