/**
 * Session files named on a command line (a second launch's arguments, `bonsai-desktop file.jsonl`):
 * the arguments that are existing .jsonl files, resolved against the launch's working folder.
 * Flags, the executable and the app's own script are skipped.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export function sessionPathsIn(argv: readonly string[], cwd: string): string[] {
  const paths: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith("-") || !arg.toLowerCase().endsWith(".jsonl")) continue;
    const file = path.resolve(cwd, arg);
    try {
      if (fs.statSync(file).isFile()) paths.push(file);
    } catch {
      // not a file here: not a session to open
    }
  }
  return paths;
}
