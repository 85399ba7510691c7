/**
 * The app's files served through the app:// scheme instead of file://: a standard, secure origin
 * (so the CSP's 'self', fetch and storage work as on the web), and only files inside the renderer's
 * folder can be read; a path that leaves it is answered 404.
 */
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { net, protocol, type Protocol } from "electron";
import { APP_HOST, APP_SCHEME } from "./app-origin";

/** Before the app is ready: app:// is a standard, secure scheme. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** The file an app:// URL names inside `root`, or null when it is not one of the app's files. */
export function appFileFor(url: string, root: string): string | null {
  const parsed = new URL(url);
  if (parsed.host !== APP_HOST) return null;
  const file = path.resolve(root, `.${decodeURIComponent(parsed.pathname)}`);
  return file.startsWith(root + path.sep) ? file : null;
}

/**
 * After ready: answer app:// requests from the renderer's folder, in the browsing session whose
 * protocol this is (the default session's unless given: Electron answers a custom scheme only in
 * the sessions it was handled in, so the archive window's own session needs it too).
 */
export function serveAppFiles(root: string, on: Pick<Protocol, "handle"> = protocol): void {
  on.handle(APP_SCHEME, (request) => {
    const file = appFileFor(request.url, path.resolve(root));
    return file ? net.fetch(pathToFileURL(file).href) : new Response("not found", { status: 404 });
  });
}
