/**
 * Settings that reach the host itself: a folder whose code runs or whose files are read and
 * written, an environment variable whose value is sent as the API key, an address the key or the
 * sessions are sent to. The window cannot set them as it likes: in browser mode they are read-only
 * (changed on the host with `bonsai config set`); the desktop app changes them only through its own
 * dialogs (a folder picker, a confirmation the main process shows).
 */
export type HostSettingKind = "folder" | "folders" | "env" | "url";

export interface HostSetting {
  /** dotted name, as `bonsai config` and the settings patch name it */
  field: string;
  kind: HostSettingKind;
  /** why it is the host's: one clause */
  why: string;
}

export const HOST_SETTINGS: readonly HostSetting[] = [
  { field: "hooksDir", kind: "folder", why: "the hook modules in it run with your permissions" },
  { field: "sessionDirs", kind: "folders", why: "Bonsai reads and writes the session files in them" },
  { field: "model.apiKeyEnv", kind: "env", why: "the value of that environment variable is sent as the API key" },
  { field: "model.baseUrl", kind: "url", why: "the API key and your sessions are sent to it" },
  { field: "compaction.remoteEndpoint", kind: "url", why: "your sessions are sent to it" },
];

export function hostSetting(field: string): HostSetting | undefined {
  return HOST_SETTINGS.find((s) => s.field === field);
}

const PLACEHOLDER: Record<HostSettingKind, string> = { folder: "DIR", folders: "DIR...", env: "NAME", url: "URL" };

/** The host's command for one setting: `command` (with KEY and VALUE) filled in, e.g. `bonsai config set hooksDir DIR --data-dir /d`. */
export function hostSettingCommand(command: string, setting: HostSetting): string {
  return command.replace("KEY", setting.field).replace("VALUE", PLACEHOLDER[setting.kind]);
}
