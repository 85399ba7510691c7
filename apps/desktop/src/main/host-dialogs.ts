/**
 * The main process's native dialogs, which the backend asks for (HostDialogs of @bonsai/backend):
 * what to import, where to save an export, which folder a folder setting gets, and the
 * confirmation of a change to a setting that reaches the host (the API key's variable, the model's
 * address). The window never hands a path or such a value to the backend itself; the text of a
 * confirmation is built here from the change, so the window cannot word it.
 *
 * Written against a structural `DialogApi` (Electron's `dialog`, bound to the window by main), so
 * the logic runs and is tested under plain Node.
 */
import * as path from "node:path";
import type { ExportFormat, FolderSetting, HostDialogs, SettingChange } from "@bonsai/backend/remote";
import { hostSetting } from "@bonsai/ipc/host-settings";

export interface OpenOptions {
  title: string;
  buttonLabel?: string;
  properties: ("openFile" | "openDirectory" | "multiSelections" | "createDirectory")[];
  filters?: { name: string; extensions: string[] }[];
}

/** the save dialog's title and filter of each export format */
const SAVE_KINDS: Record<ExportFormat, { title: string; filter: string; extension: string }> = {
  jsonl: { title: "JSONL", filter: "Agent session", extension: "jsonl" },
  markdown: { title: "Markdown", filter: "Markdown", extension: "md" },
  html: { title: "HTML page", filter: "Web page", extension: "html" },
  pi: { title: "pi session", filter: "pi session", extension: "jsonl" },
};

export interface SaveOptions {
  title: string;
  defaultPath: string;
  filters: { name: string; extensions: string[] }[];
}

export interface MessageOptions {
  type: "warning";
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
  noLink: boolean;
}

/** The part of Electron's `dialog` used here (main binds it to the window). */
export interface DialogApi {
  showOpenDialog(options: OpenOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
  showSaveDialog(options: SaveOptions): Promise<{ canceled: boolean; filePath?: string }>;
  showMessageBox(options: MessageOptions): Promise<{ response: number }>;
}

const CONFIRM = 1;

/** The confirmation of changes to host settings: every change with its old and new value and why it matters. */
export function confirmationMessage(changes: readonly SettingChange[]): MessageOptions {
  const lines = changes.map((c) => {
    const why = hostSetting(c.field)?.why;
    return `${c.field}: ${c.from} → ${c.to}${why ? `\n    (${why})` : ""}`;
  });
  return {
    type: "warning",
    title: "Bonsai",
    message: changes.length === 1 ? "Change a setting that reaches this computer?" : "Change settings that reach this computer?",
    detail: lines.join("\n"),
    buttons: ["Cancel", "Change"],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
}

export function mainProcessDialogs(dialog: DialogApi, documentsDir: string): HostDialogs {
  return {
    async openSessionFiles() {
      const r = await dialog.showOpenDialog({
        title: "Import sessions",
        properties: ["openFile", "multiSelections"],
        filters: [
          { name: "Agent sessions", extensions: ["jsonl"] },
          { name: "All files", extensions: ["*"] },
        ],
      });
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths;
    },
    async saveSessionFile(fileName: string, format: ExportFormat) {
      const kind = SAVE_KINDS[format];
      const r = await dialog.showSaveDialog({
        title: `Export session (${kind.title})`,
        defaultPath: path.join(documentsDir, fileName),
        filters: [{ name: kind.filter, extensions: [kind.extension] }],
      });
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    async chooseFolder(field: FolderSetting) {
      const r = await dialog.showOpenDialog({
        title: field === "hooksDir" ? "Folder of hook modules" : "Add a session folder",
        buttonLabel: field === "hooksDir" ? "Use this folder" : "Add folder",
        properties: ["openDirectory", "createDirectory"],
      });
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0]!;
    },
    async chooseGitRepository() {
      const r = await dialog.showOpenDialog({ title: "Import from a Git Repository", buttonLabel: "Import checkpoints", properties: ["openDirectory"] });
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0]!;
    },
    async confirmSettings(changes: readonly SettingChange[]) {
      if (changes.length === 0) return true;
      return (await dialog.showMessageBox(confirmationMessage(changes))).response === CONFIRM;
    },
  };
}
