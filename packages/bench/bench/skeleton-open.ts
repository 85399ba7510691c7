/**
 * The backend's open path on a stored session, as `bonsai serve` starts it (the bundled store
 * worker: build the CLI first), wall time of each answer in ms, as JSON: the first openSession
 * after the start (a big session's skeleton from the `skeleton_cache` table, read by the worker),
 * the median of 5 opens more (held by the store), then after one entry appended through the
 * backend's store: the getSkeletonTail a page asks for, an openSession (read again whole) and one
 * more. Run it on a copy of the data folder each time (it appends):
 *
 *   node --import tsx packages/bench/bench/skeleton-open.ts DATA_DIR SESSION_ID
 */
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createBackend } from "@bonsai/backend";
import { installedAddonPath } from "@bonsai/store/native-addon";

const [dataDir, sessionId] = process.argv.slice(2);
if (!dataDir || !sessionId) {
  process.stderr.write("usage: node --import tsx skeleton-open.ts DATA_DIR SESSION_ID\n");
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const workerUrl = pathToFileURL(path.resolve(here, "../../../apps/cli/dist/compaction-worker.mjs"));
const nativeBinding = installedAddonPath(path.resolve(here, "../../../apps/cli/package.json"));
const backend = createBackend({ dataDir, env: { BONSAI_SESSIONS_DIRS: dataDir }, nativeBinding, worker: { url: workerUrl } });
const wall = async (f: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  const r = (await f()) as { ok: boolean; error?: { message: string } };
  if (!r.ok) throw new Error(r.error?.message);
  return Math.round(performance.now() - t);
};
const open = () => backend.dispatch("openSession", { sessionId });
const first = await wall(open);
const again: number[] = [];
for (let i = 0; i < 5; i++) again.push(await wall(open));
again.sort((a, b) => a - b);
// an append through the backend's store, then the tail a page asks for, then an open
const count = ((await backend.dispatch("openSession", { sessionId })) as { ok: true; value: { skeleton: { ids: string[] } } }).value.skeleton.ids.length;
const skel = (await backend.dispatch("getSkeleton", { sessionId })) as { ok: true; value: { ids: string[] } };
const lastId = skel.value.ids.at(-1)!;
backend.store.appendEntry(sessionId, { type: "message", message: { role: "user", content: "one more", timestamp: 1 } });
const tail = await wall(() => backend.dispatch("getSkeletonTail", { sessionId, count, lastId }));
const openAfterAppend = await wall(open);
const openAgain = await wall(open);
process.stdout.write(`${JSON.stringify({ firstOpenAfterStart: first, heldOpenMedian: again[2], tail, openAfterAppend, openAgain })}\n`);
await backend.close();
