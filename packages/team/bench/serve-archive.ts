/** A `bonsai team serve` process for the benches, its request log in `logFile`, on a free port. */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../apps/cli/dist/bonsai.mjs");

export function serveArchive(database: string, logFile: string, extraArgs: readonly string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const log = fs.openSync(logFile, "w");
  const child = spawn(process.execPath, [cli, "team", "serve", "--database", database, "--listen", "127.0.0.1:0", ...extraArgs], { stdio: ["ignore", log, "pipe"] });
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(err);
      if (match) resolve({ url: match[1] as string, child });
    });
    child.once("exit", (code) => reject(new Error(`bonsai team serve exited ${code}: ${err}`)));
  });
}
