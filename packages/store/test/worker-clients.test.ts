/**
 * Every worker thread of the product goes through the one worker RPC (src/worker-rpc/): no other
 * product file touches node:worker_threads (so none posts or tells messages apart by their shape),
 * each package's worker entry only exposes a module, and each worker client is a WorkerRpc.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const RPC_DIR = path.join(ROOT, "packages/store/src/worker-rpc");

function productFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...productFiles(p));
    else if (/\.tsx?$/.test(e.name) && !/\.(test|d)\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

function imports(file: string): string[] {
  return ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true).importedFiles.map((f) => f.fileName);
}

const ENTRIES = ["packages/store/src/jobs/store-worker.ts", "packages/engine/src/worker/compaction-worker.ts", "packages/team/src/worker/amnesia-worker.ts"];
const CLIENTS = [
  { file: "packages/store/src/jobs/client.ts", cls: "WorkerStoreJobs" },
  { file: "packages/engine/src/planner.ts", cls: "WorkerPlanner" },
  { file: "packages/team/src/amnesia-scorer.ts", cls: "WorkerAmnesiaScorer" },
];

describe("worker clients", () => {
  const roots = ["packages", "apps"].flatMap((group) =>
    fs.readdirSync(path.join(ROOT, group)).map((name) => path.join(ROOT, group, name, "src")).filter((src) => fs.existsSync(src)),
  );
  const files = roots.flatMap(productFiles);

  it("only the worker RPC imports node:worker_threads", () => {
    const users = files.filter((f) => imports(f).some((i) => i === "node:worker_threads" || i === "worker_threads")).map((f) => path.relative(ROOT, f));
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter((f) => !path.join(ROOT, f).startsWith(RPC_DIR + path.sep))).toEqual([]);
  });

  it("each package's worker entry exposes its module through exposeOnWorker, and does nothing else", () => {
    for (const entry of ENTRIES) {
      const text = fs.readFileSync(path.join(ROOT, entry), "utf8");
      expect(text, entry).toMatch(/\bexposeOnWorker\(/);
      expect(text, entry).not.toMatch(/parentPort|postMessage|\.on\("message"/);
    }
  });

  it("each worker client calls its worker through a WorkerRpc", () => {
    for (const { file, cls } of CLIENTS) {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      const body = text.slice(text.indexOf(`export class ${cls}`));
      expect(body, cls).toMatch(/new WorkerRpc</);
      expect(body, cls).not.toMatch(/postMessage|spawnModuleWorker|\.on\("message"/);
    }
  });
});
