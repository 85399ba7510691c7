/** Import and export actions shared by the buttons, the menu and drag-and-drop. */
import { api, downloadUrl, errorMessage } from "../lib/api";
import { useBonsai } from "../state/store";
import { planDrop } from "./drop";

let fileInput: HTMLInputElement | null = null;

/** The hidden <input type=file> the shell renders registers itself here. */
export function registerFileInput(input: HTMLInputElement | null): void {
  fileInput = input;
}

/**
 * The desktop app: the main process's open dialog (the files are imported where they are, so
 * write-through reaches the agent's file). Browser mode: the file input (the files are uploaded).
 */
export async function chooseAndImport(): Promise<void> {
  const s = useBonsai.getState();
  if (s.appInfo?.nativeDialogs) {
    await s.importFromDialog();
    return;
  }
  fileInput?.click();
}

/**
 * Files and folders dropped on the window. The desktop app imports them where they are (like the
 * Import dialog); one outside the session folders the backend allows is uploaded as a copy instead,
 * and browser mode always uploads copies: both say so.
 */
export async function importDropped(files: readonly File[]): Promise<void> {
  const s = useBonsai.getState();
  const plan = planDrop(files, window.bonsaiFiles);
  const uploadCopies = async (why: string) => {
    const results = await s.importFiles(files);
    // nothing uploaded (a folder in the browser, an import already running): no copy to speak of
    if (results.length > 0) s.notify("info", `${why}: imported as a copy, so Bonsai's changes do not reach the original file.`);
    return results;
  };
  if (plan.kind === "in-place") {
    await s.importFolders(plan.paths, () => uploadCopies("The dropped file lies outside the session folders (add its folder in Preferences to import it in place)"));
    return;
  }
  await uploadCopies("Dropped in the browser");
}

/**
 * Export the open session. Browser mode: a download the browser saves (a one-time address on
 * `bonsai serve`); the desktop app: the main process asks where to save. Never a path from here.
 * jsonl (Claude Code / Codex: the agent's own file), markdown, or html (one offline page of the
 * tree and the transcript of the path to the leaf).
 */
export async function exportOpenSession(format: "jsonl" | "markdown" | "html" | "pi"): Promise<void> {
  const s = useBonsai.getState();
  const sessionId = s.openSessionId;
  if (!sessionId) {
    s.notify("info", "Open a session to export it.");
    return;
  }
  try {
    // markdown, html: the path to the leaf shown (jsonl is the whole session)
    const leaf = format === "jsonl" ? {} : { leafId: s.skeleton?.leafId ?? null };
    if (s.appInfo?.nativeDialogs) {
      const { path } = await api().saveSessionAs({ sessionId, format, ...leaf });
      if (path !== null) s.notify("info", `Exported to ${path}`);
      return;
    }
    const out = await api().exportSession({ sessionId, format, ...leaf });
    const a = document.createElement("a");
    a.href = downloadUrl(out.url);
    a.download = out.fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } catch (err) {
    s.notify("error", `Export failed: ${errorMessage(err)}`);
  }
}
