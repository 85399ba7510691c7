/**
 * Files that sit next to the CLI bundle (apps/cli/dist): the compaction worker, and the desktop
 * renderer two folders up. The bundle is split (scripts/build.mjs): the entry runs from dist/, but
 * the command implementations run from dist/chunks/, so a URL relative to a module's own
 * import.meta.url would depend on which chunk the module landed in. Resolving from this module's
 * folder, one level up when that folder is "chunks", gives dist/ in the bundle and apps/cli/src/
 * when the sources run directly (tests, tsx) — where no bundled worker exists.
 */
export function besideBundle(relative: string): URL {
  const here = new URL(".", import.meta.url);
  const base = here.pathname.endsWith("/chunks/") ? new URL("..", here) : here;
  return new URL(relative, base);
}
