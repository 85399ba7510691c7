/**
 * "Connect to Team Archive…": a window of its own that shows the app's connect page (address and
 * token), then the team archive's page, which is the same explorer served by `bonsai team serve`.
 * The window has no preload: its page reaches only its archive, over the archive's WebSocket, as
 * in a browser, and keeps the token for as long as the window is open. Navigation stays on that
 * archive (archive-navigation.ts); every other rule of the app's lock-down applies.
 */
import { BrowserWindow, type BrowserWindowConstructorOptions } from "electron";
import { archiveNavigation } from "./archive-navigation";

/** webContents id -> the archive it connected to (null: still on the connect page) */
const archives = new Map<number, string | null>();

/** Whether the archive window with these webContents may go to `url` (false for any other window). */
export function archiveWindowMayNavigate(contentsId: number, url: string): boolean {
  if (!archives.has(contentsId)) return false;
  const answer = archiveNavigation(archives.get(contentsId) ?? null, url);
  if (answer.allow) archives.set(contentsId, answer.archive);
  return answer.allow;
}

export function openArchiveWindow(connectPageUrl: string, icon: Pick<BrowserWindowConstructorOptions, "icon">): BrowserWindow {
  const w = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 720,
    minHeight: 480,
    title: "Bonsai — team archive",
    ...icon,
    webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, spellcheck: false },
  });
  const id = w.webContents.id;
  archives.set(id, null);
  w.on("closed", () => archives.delete(id));
  void w.loadURL(connectPageUrl);
  return w;
}
