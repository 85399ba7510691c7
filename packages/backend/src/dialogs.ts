/**
 * What only the desktop app's main process can show: native dialogs, outside the window's reach.
 * A desktop host passes them to createBackend (through the port protocol: host.ts / remote.ts);
 * without them the backend follows browser mode's rules. Types only: the main process imports this.
 */

/** One changed host setting, with both values as text (what a confirmation shows). */
export interface SettingChange {
  field: string;
  from: string;
  to: string;
}

export type FolderSetting = "hooksDir" | "sessionDirs";
/** jsonl, markdown, html (one offline page), pi (the path to the leaf as a pi session) */
export type ExportFormat = "jsonl" | "markdown" | "html" | "pi";

export interface HostDialogs {
  /** the open dialog for session files; null when cancelled */
  openSessionFiles(): Promise<string[] | null>;
  /** the save dialog, suggesting `fileName`; null when cancelled */
  saveSessionFile(fileName: string, format: ExportFormat): Promise<string | null>;
  /** a folder picker for a git repository to import the Entire checkpoints of; null when cancelled */
  chooseGitRepository(): Promise<string | null>;
  /** a folder picker for a folder setting; null when cancelled */
  chooseFolder(field: FolderSetting): Promise<string | null>;
  /** shows the changes and asks to apply them; true when the user confirmed */
  confirmSettings(changes: readonly SettingChange[]): Promise<boolean>;
}
