/**
 * "Connect to Team Archive…": a window of its own that shows the app's connect page (address and
 * token), then the team archive's page, which is the same explorer served by `bonsai team serve`.
 * The window has no preload: its page reaches only its archive, over the archive's WebSocket, as
 * in a browser, and keeps the token for as long as the window is open (its own in-memory browsing
 * session). Navigation stays on that archive (archive-navigation.ts); every other rule of the app's
 * lock-down applies. "Download for pi" puts the copy into pi's folder (pi-download.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { app, BrowserWindow, dialog, session, type BrowserWindowConstructorOptions, type Session } from "electron";
import { serveAppFiles } from "./app-protocol";
import { archiveNavigation } from "./archive-navigation";
import { movePiDownload } from "./pi-download";

/** the archive windows' own browsing session: in memory (the token goes with the app), apart from the app's */
const PARTITION = "bonsai-archive";
let prepared: Session | null = null;

/**
 * The archive windows' session: the app's own pages are served in it (app://), no permission is ever granted, and a "Download for pi" (a
 * `.pi.jsonl` download) goes into pi's own folder for the session's cwd; any other download asks
 * where to save, as Electron does.
 */
function archiveSession(appFiles: string): Session {
  if (prepared) return prepared;
  const s = session.fromPartition(PARTITION);
  // the connect page is the app's own page (app://bonsai, from the renderer's folder), served here too
  serveAppFiles(appFiles, s.protocol);
  s.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  s.setPermissionCheckHandler(() => false);
  s.on("will-download", (_event, item, contents) => {
    if (!item.getFilename().endsWith(".pi.jsonl")) return;
    const folder = fs.mkdtempSync(path.join(app.getPath("temp"), "bonsai-pi-"));
    const file = path.join(folder, "download.pi.jsonl");
    item.setSavePath(file);
    item.once("done", (_e, state) => {
      const owner = BrowserWindow.fromWebContents(contents);
      const tell = (message: string, type: "info" | "error") => void (owner ? dialog.showMessageBox(owner, { type, message }) : dialog.showMessageBox({ type, message }));
      if (state !== "completed") {
        fs.rmSync(folder, { recursive: true, force: true });
        tell("The pi copy was not downloaded.", "error");
        return;
      }
      try {
        const moved = movePiDownload(file, process.env, os.homedir());
        if ("file" in moved) tell(`A pi session continuing the archived one is in pi's folder: ${moved.file}. Resume it with pi there.`, "info");
        else tell(`The pi copy stayed in ${file}: ${moved.error}.`, "error");
      } catch (err) {
        tell(`The pi copy stayed in ${file}: ${err instanceof Error ? err.message : String(err)}.`, "error");
      }
      if (fs.existsSync(folder) && fs.readdirSync(folder).length === 0) fs.rmSync(folder, { recursive: true, force: true });
    });
  });
  prepared = s;
  return s;
}

/** webContents id -> the archive it connected to (null: still on the connect page) */
const archives = new Map<number, string | null>();

/** Whether the archive window with these webContents may go to `url` (false for any other window). */
export function archiveWindowMayNavigate(contentsId: number, url: string): boolean {
  if (!archives.has(contentsId)) return false;
  const answer = archiveNavigation(archives.get(contentsId) ?? null, url);
  if (answer.allow) archives.set(contentsId, answer.archive);
  return answer.allow;
}

/** `appFiles`: the renderer's folder, which app:// serves in the window's own session (its connect page). */
export function openArchiveWindow(connectPageUrl: string, icon: Pick<BrowserWindowConstructorOptions, "icon">, appFiles: string): BrowserWindow {
  const w = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 720,
    minHeight: 480,
    title: "Bonsai — team archive",
    ...icon,
    webPreferences: { session: archiveSession(appFiles), contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, spellcheck: false },
  });
  const id = w.webContents.id;
  archives.set(id, null);
  w.on("closed", () => archives.delete(id));
  void w.loadURL(connectPageUrl);
  return w;
}
