/**
 * Where a team-archive window may go: from the app's connect page to the one http(s) archive the
 * person typed, then only within that archive's origin (another site opens in the browser, never
 * inside the app). Pure; tested.
 */

/** `archive`: the origin the window connected to, null while it shows the connect page. */
export function archiveNavigation(archive: string | null, url: string): { allow: boolean; archive: string | null } {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { allow: false, archive };
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") return { allow: false, archive };
  if (archive === null) return { allow: true, archive: target.origin };
  return { allow: target.origin === archive, archive };
}
