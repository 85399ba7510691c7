/** Import actions shared by the button, the menu and drag-and-drop. */
import { api, errorMessage } from "../lib/api";
import { useBonsai } from "../state/store";

let fileInput: HTMLInputElement | null = null;

/** The hidden <input type=file> the shell renders registers itself here. */
export function registerFileInput(input: HTMLInputElement | null): void {
  fileInput = input;
}

/** Electron: the native picker (paths, so write-through works). Browser: the file input. */
export async function chooseAndImport(): Promise<void> {
  const s = useBonsai.getState();
  if (s.appInfo?.nativeDialogs) {
    try {
      const { paths } = await api().chooseSessionFiles();
      if (paths && paths.length > 0) await s.importPaths(paths);
      return;
    } catch (err) {
      s.notify("error", `Could not open the file picker: ${errorMessage(err)}`);
    }
  }
  fileInput?.click();
}

/** Download the open session (browser download in both modes; Electron asks where to save). */
export async function exportOpenSession(format: "jsonl" | "markdown"): Promise<void> {
  const s = useBonsai.getState();
  const sessionId = s.openSessionId;
  if (!sessionId) {
    s.notify("info", "Open a session to export it.");
    return;
  }
  try {
    const out = await api().exportSession({ sessionId, format });
    if (out.content === null) return;
    const url = URL.createObjectURL(new Blob([out.content], { type: out.mimeType }));
    const a = document.createElement("a");
    a.href = url;
    a.download = out.fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    s.notify("error", `Export failed: ${errorMessage(err)}`);
  }
}
