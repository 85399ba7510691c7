/**
 * Which paths the window may import: only what lies inside the agents' session folders
 * (~/.pi/agent/sessions, ~/.omp/agent/sessions, BONSAI_SESSIONS_DIRS of the host), the configured
 * settings.sessionDirs, and Bonsai's own uploads folder. Containment is checked on the real path
 * (symlinks resolved, `..` normalized), so a link inside a session folder that leads elsewhere is
 * refused as well. Anything else is a host capability the window does not have.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { defaultSessionDirs, scanPaths } from "@bonsai/store";
import { IpcError } from "@bonsai/ipc";

export interface ImportRoots {
  /** the session folders as configured (absolute): what a refusal names */
  sessionFolders: string[];
  /** their real paths, and the uploads folder's (for a folder not created yet: its parent's real path and the rest) */
  real: string[];
}

export function importRoots(settingsDirs: readonly string[], env: NodeJS.ProcessEnv, uploadsDir: string): ImportRoots {
  const sessionFolders = defaultSessionDirs(settingsDirs, env, env.HOME || os.homedir());
  const real = [...sessionFolders, path.resolve(uploadsDir)].map(realPathOf);
  return { sessionFolders, real };
}

function inside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The real path of `file`, or of its deepest existing ancestor joined with the rest (for a file that does not exist yet). */
function realPathOf(file: string): string {
  let existing = file;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return file;
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

/** The outermost path between `folder` and `file` (a file outside the roots) that leads outside: the link. */
function linkLeadingOut(file: string, folder: string, roots: ImportRoots): string {
  let link = file;
  for (let dir = path.dirname(file); dir !== folder && inside(dir, folder); dir = path.dirname(dir)) {
    if (!isAllowedImportPath(dir, roots)) link = dir;
  }
  return link;
}

export function isAllowedImportPath(file: string, roots: ImportRoots): boolean {
  const real = realPathOf(path.resolve(file));
  return roots.real.some((r) => inside(real, r));
}

export interface ResolvedImport {
  /** as the caller gave it */
  source: string;
  /** absolute files to import (a folder: every *.jsonl below it that stays inside the roots) */
  files: string[];
  /** links below a folder that lead outside the roots (a symlinked file or folder, never a name behind it): skipped */
  skipped: string[];
  folder: boolean;
}

/**
 * Checks every path the window asked for; one outside the roots refuses the whole call (nothing is
 * imported) with a `forbidden` error naming the folders that are allowed.
 */
export function resolveImportPaths(paths: readonly string[], roots: ImportRoots, hostCommands: { config: string; import: string }): ResolvedImport[] {
  const refused = paths.filter((p) => !path.isAbsolute(p) || !isAllowedImportPath(p, roots));
  if (refused.length > 0) {
    const list = roots.sessionFolders.join(", ");
    throw new IpcError(
      "forbidden",
      `cannot import ${refused.map((p) => JSON.stringify(p)).join(", ")}: the window may import uploaded files and paths inside the agents' session folders only (${list}). ` +
        `On the host, add its folder with \`${hostCommands.config.replace("KEY VALUE", "sessionDirs DIR...")}\` or import it with \`${hostCommands.import}\`.`,
    );
  }
  return paths.map((p) => {
    const abs = path.resolve(p);
    let folder = false;
    try {
      folder = fs.statSync(abs).isDirectory();
    } catch {
      // missing: the store reports it
    }
    if (!folder) return { source: p, files: [abs], skipped: [], folder };
    const found = scanPaths([abs]).files.map((f) => f.path);
    // what leads outside is named by its link (a symlinked folder), never by the files behind it
    const skipped = new Set(found.filter((f) => !isAllowedImportPath(f, roots)).map((f) => linkLeadingOut(f, abs, roots)));
    return { source: p, files: found.filter((f) => isAllowedImportPath(f, roots)), skipped: [...skipped], folder };
  });
}
