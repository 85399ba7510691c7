/**
 * Which pages are the app's own: compared as origins (scheme, host and port), never as string
 * prefixes, so `http://localhost:5173.evil.example/` or `http://localhost:51730/` is not the dev
 * server `http://localhost:5173`. In a built app the pages come from the app:// scheme (app-protocol.ts).
 */
export const APP_SCHEME = "app";
export const APP_HOST = "bonsai";
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    // URL gives "null" for schemes it does not know the origin rules of (custom schemes)
    if (origin !== "null") return origin;
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}

/** A predicate: is this URL one of the app's pages (the dev server's when given, else app://bonsai)? */
export function appUrlCheck(devServerUrl: string | undefined): (url: string) => boolean {
  const expected = originOf(devServerUrl ?? APP_ORIGIN);
  return (url) => expected !== null && originOf(url) === expected;
}
