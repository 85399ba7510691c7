/**
 * The backend as `bonsai serve` starts it (its database, the bundled worker for bulk work:
 * apps/cli/dist/compaction-worker.mjs, which compare.bench.ts builds first), then its first
 * answers about a stored session: getContextPreview (what the model sees from the leaf, the first
 * context the window shows) and openSession (summary and tree skeleton). Prints the CPU time of this
 * thread's process for each step, measured in the process (process.cpuUsage), as JSON:
 * `{ startMs, contextMs, openMs, messages }`. Run by compare.bench.ts with `node --import tsx`.
 *
 *   node --import tsx backend-first-context.ts DATA_DIR SESSION_ID
 */
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createBackend } from "@bonsai/backend";
import { installedAddonPath } from "@bonsai/store/native-addon";

const [dataDir, sessionId] = process.argv.slice(2);
if (!dataDir || !sessionId) {
  process.stderr.write("usage: node --import tsx backend-first-context.ts DATA_DIR SESSION_ID\n");
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const workerUrl = pathToFileURL(path.resolve(here, "../../../apps/cli/dist/compaction-worker.mjs"));

const ms = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

const t0 = process.cpuUsage();
// as bonsai serve: the bundled worker loads better-sqlite3's addon by path
const nativeBinding = installedAddonPath(path.resolve(here, "../../../apps/cli/package.json"));
const backend = createBackend({ dataDir, env: { BONSAI_SESSIONS_DIRS: dataDir }, nativeBinding, worker: { url: workerUrl } });
const t1 = process.cpuUsage();
const context = await backend.dispatch("getContextPreview", { sessionId });
const t2 = process.cpuUsage();
const opened = await backend.dispatch("openSession", { sessionId });
const t3 = process.cpuUsage();
if (!context.ok) throw new Error(`getContextPreview: ${context.error.message}`);
if (!opened.ok) throw new Error(`openSession: ${opened.error.message}`);
const messages = (context.value as { messages: unknown[] }).messages.length;
process.stdout.write(`${JSON.stringify({ startMs: ms(t1) - ms(t0), contextMs: ms(t2) - ms(t1), openMs: ms(t3) - ms(t2), messages })}\n`);
await backend.close();
