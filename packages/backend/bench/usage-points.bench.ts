/**
 * The replies' usage behind the tree's figures (getUsagePoints, packages/backend/src/usage-points.ts)
 * on a long session: the whole tree's answer (a tree's first draw: every assistant reply's entry
 * read), and the answer after an append for the nodes the page does not hold yet (every later change
 * of the tree). CPU of this process, medians; the backend's store holds the skeleton as it does
 * while the page shows the tree.
 *
 *   pnpm bench usage-points        (BONSAI_BENCH_ENTRIES: the session's size, default 100,000)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import type { SqliteSessionStore } from "@bonsai/store";
import { markdownTable, timeMedian } from "../../testkit/src/bench";
import { createBackend } from "../src/index";
import { usagePoints } from "../src/usage-points";

const ENTRIES = Number(process.env.BONSAI_BENCH_ENTRIES ?? 100_000);
const APPENDED = 100;
const REPEATS = 5;

/** `count` lines after `parentId`: user questions and assistant replies, each reply with a usage */
function appendedLines(parentId: string, count: number): string {
  const out: string[] = [];
  let parent = parentId;
  for (let i = 0; i < count; i++) {
    const id = `appended${String(i).padStart(5, "0")}`;
    const timestamp = new Date(Date.UTC(2026, 11, 8, 0, 0, i)).toISOString();
    const message =
      i % 2 === 1
        ? { role: "assistant", content: [{ type: "text", text: `reply ${i}` }], provider: "p", model: "m", usage: { input: 90_000 + i, output: 40, cacheRead: 0, cacheWrite: 0, totalTokens: 0 }, stopReason: "stop", timestamp: Date.parse(timestamp) }
        : { role: "user", content: `question ${i}`, timestamp: Date.parse(timestamp) };
    out.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp, message }));
    parent = id;
  }
  return `${out.join("\n")}\n`;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-bench-usage-"));
const backend = createBackend({ dataDir: dir, env: {} });
try {
  const file = path.join(dir, "session.jsonl");
  fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: ENTRIES, seed: 2026 })));
  const store = backend.store as SqliteSessionStore;
  const sessionId = (await store.importFile(file)).sessionId as string;
  store.getSkeleton(sessionId); // held, as while the page shows the tree

  const whole = timeMedian(() => usagePoints(store, sessionId), REPEATS);
  const held = whole.result;
  fs.appendFileSync(file, appendedLines(store.getLeaf(sessionId) as string, APPENDED));
  await store.importFile(file);
  store.getSkeleton(sessionId);
  const after = timeMedian(() => usagePoints(store, sessionId, { nodes: held.nodes, lastId: held.lastId as string }), REPEATS);
  const wholeAgain = timeMedian(() => usagePoints(store, sessionId), REPEATS);

  console.log(`getUsagePoints on a generated session of ${ENTRIES.toLocaleString("en-US")} entries (${held.entryIds.length.toLocaleString("en-US")} replies with a usage), medians of ${REPEATS}:\n`);
  console.log(
    markdownTable(
      ["answer", "replies in it", "CPU (ms)", "wall (ms)"],
      [
        ["the whole tree (first draw)", held.entryIds.length, whole.cpuMs.toFixed(1), whole.ms.toFixed(1)],
        [`after ${APPENDED} appended lines: the nodes the page does not hold`, after.result.entryIds.length, after.cpuMs.toFixed(1), after.ms.toFixed(1)],
        [`after ${APPENDED} appended lines: the whole tree again (before this change, every time)`, wholeAgain.result.entryIds.length, wholeAgain.cpuMs.toFixed(1), wholeAgain.ms.toFixed(1)],
      ],
    ),
  );
} finally {
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
