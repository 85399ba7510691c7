/**
 * What the window may do to the host's settings (HOST_SETTINGS of @bonsai/ipc: the hooks folder,
 * the session folders, the API key's environment variable, the model and summarizer addresses).
 *
 *   browser mode   read-only: any change is refused with `forbidden`, and the message gives the
 *                  exact `bonsai config set` command and the database that holds the value
 *   desktop app    a folder only from the main process's folder picker (a patch may remove folders);
 *                  a variable or an address only after the main process showed the change and the
 *                  user confirmed it (else `aborted`)
 *
 * The main process's dialogs are the HostDialogs (dialogs.ts) a desktop host passes to
 * createBackend; without them the backend follows browser mode's rules.
 */
import * as path from "node:path";
import type { BonsaiSettings, SettingsPatch } from "@bonsai/core";
import { HOST_SETTINGS, hostSettingCommand, IpcError, type HostSetting, type SettingsState } from "@bonsai/ipc";
import { DB_FILE_NAME } from "@bonsai/store";
import type { HostDialogs, SettingChange } from "./dialogs";

export type { HostDialogs, SettingChange } from "./dialogs";

function valueAt(settings: BonsaiSettings | SettingsPatch, field: string): unknown {
  let v: unknown = settings;
  for (const part of field.split(".")) v = v && typeof v === "object" ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

function asText(v: unknown): string {
  if (Array.isArray(v)) return v.length === 0 ? "(none)" : v.join(", ");
  return v === "" || v === undefined ? "(empty)" : String(v);
}

/** Host settings the patch changes (a field given with its current value is no change). */
export function hostSettingChanges(patch: SettingsPatch, current: BonsaiSettings): (SettingChange & { setting: HostSetting; before: unknown; after: unknown })[] {
  const out: (SettingChange & { setting: HostSetting; before: unknown; after: unknown })[] = [];
  for (const setting of HOST_SETTINGS) {
    const after = valueAt(patch, setting.field);
    if (after === undefined) continue;
    const before = valueAt(current, setting.field);
    if (JSON.stringify(after) === JSON.stringify(before)) continue;
    out.push({ setting, field: setting.field, from: asText(before), to: asText(after), before, after });
  }
  return out;
}

/** Only folders taken away: a smaller sessionDirs, or hooksDir back to the default. */
function onlyRemoves(change: { setting: HostSetting; before: unknown; after: unknown }): boolean {
  if (change.setting.kind === "folder") return change.after === "";
  if (change.setting.kind === "folders") {
    const before = new Set(change.before as string[]);
    return (change.after as string[]).every((d) => before.has(d));
  }
  return false;
}

/** How the host does what the window may not: the commands (for this database) and where settings live. */
export interface HostSettingsInfo {
  /** `bonsai config set KEY VALUE …` with the flags that reach this database */
  command: string;
  /** `… bonsai import FILE` into this database */
  importCommand: string;
  database: string;
}

function quoteArg(s: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/u.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

export function hostSettingsInfo(dataDir: string, dbPath: string): HostSettingsInfo {
  const viaDataDir = path.resolve(dbPath) === path.join(path.resolve(dataDir), DB_FILE_NAME);
  const command = viaDataDir ? `bonsai config set KEY VALUE --data-dir ${quoteArg(dataDir)}` : `BONSAI_DB=${quoteArg(dbPath)} bonsai config set KEY VALUE`;
  return { command, importCommand: `BONSAI_DB=${quoteArg(dbPath)} bonsai import FILE`, database: dbPath };
}

export function hostSettingsState(info: HostSettingsInfo, dialogs: HostDialogs | undefined): SettingsState["hostSettings"] {
  return { fields: HOST_SETTINGS.map((s) => s.field), changeWith: dialogs ? "dialogs" : "cli", command: info.command, database: info.database };
}

/** The refusal of browser mode: which setting, why it is the host's, and the exact way to change it there. */
export function browserRefusal(changes: readonly { setting: HostSetting }[], info: HostSettingsInfo): IpcError {
  const first = changes[0]!.setting;
  const names = changes.map((c) => c.setting.field).join(", ");
  const command = hostSettingCommand(info.command, first);
  return new IpcError(
    "forbidden",
    `${names} ${changes.length > 1 ? "are host settings" : "is a host setting"} (${first.why}): the browser page cannot change ${changes.length > 1 ? "them" : "it"}. ` +
      `On the host run \`${command}\` (settings are kept in ${info.database}); \`bonsai serve\` uses the new value from its next call${first.field === "hooksDir" ? ", and loads hook modules when it starts" : ""}.`,
  );
}

/**
 * Refuses or confirms a settings patch before it is applied. Returns normally when the patch may
 * be applied as it is.
 */
export async function guardSettingsPatch(patch: SettingsPatch, current: BonsaiSettings, dialogs: HostDialogs | undefined, info: HostSettingsInfo): Promise<void> {
  const changes = hostSettingChanges(patch, current);
  if (changes.length === 0) return;
  if (!dialogs) throw browserRefusal(changes, info);
  const added = changes.filter((c) => (c.setting.kind === "folder" || c.setting.kind === "folders") && !onlyRemoves(c));
  if (added.length > 0) {
    throw new IpcError("forbidden", `${added.map((c) => c.field).join(", ")}: choose a folder with “Choose folder…” (the system's folder picker); the window cannot name one`);
  }
  const toConfirm = changes.filter((c) => c.setting.kind === "env" || c.setting.kind === "url");
  if (toConfirm.length === 0) return;
  const confirmed = await dialogs.confirmSettings(toConfirm.map(({ field, from, to }) => ({ field, from, to })));
  if (!confirmed) throw new IpcError("aborted", `${toConfirm.map((c) => c.field).join(", ")} not changed: the change was not confirmed`);
}
