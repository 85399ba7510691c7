/**
 * Child process of kills.test.ts: opens the store (recovery runs), prints "ready", then does one
 * operation on the session of FILE. With a fault point it SIGKILLs itself when the file protocol
 * reaches that point; otherwise the parent kills it at a random moment.
 *   node --import tsx op-child.ts <op> <db> <file> [faultPoint]
 *   op: import | prune | restore | compact | navigate | label | long-label (a label of 40,000 characters)
 */
import { applyPruning, planPruning } from "@bonsai/core";
import { openStore, type FaultPoint } from "../../src/index";

const [op, db, file, point] = process.argv.slice(2);
if (!op || !db || !file) throw new Error("usage: op-child.ts <op> <db> <file> [faultPoint]");
const store = openStore({
  path: db,
  fault: (p: FaultPoint) => {
    if (p === point) process.kill(process.pid, "SIGKILL");
  },
});
const sessionId = (): string => {
  const s = store.listSessions().find((x) => x.sourcePath === file);
  if (!s) throw new Error(`no session for ${file}`);
  return s.id;
};
process.stdout.write("ready\n");
const started = performance.now();
try {
  if (op === "import") await store.importFile(file);
  else if (op === "prune") {
    const id = sessionId();
    const p = store.getPath(id);
    store.applyPruning(id, applyPruning(p, planPruning(p), Date.now()));
  } else if (op === "restore") store.restorePruned(sessionId());
  else if (op === "compact") {
    const id = sessionId();
    const kept = store.getPath(id).at(-10)?.id as string;
    store.appendEntry(id, { type: "compaction", summary: "summary of the work", firstKeptEntryId: kept, tokensBefore: 12345 }, { expect: { leafId: store.getLeaf(id), onPath: [kept] } });
  } else if (op === "navigate") {
    const id = sessionId();
    const target = store.getPath(id).at(-10)?.id as string;
    store.appendEntry(id, { type: "branch_summary", fromId: target, summary: "abandoned" }, { parentId: target, expect: { leafId: store.getLeaf(id), exists: [target] } });
  } else if (op === "label") {
    const id = sessionId();
    store.appendLabel(id, store.getLeaf(id) as string, "mark");
  } else if (op === "long-label") {
    const id = sessionId();
    store.appendLabel(id, store.getLeaf(id) as string, "a long mark ".repeat(3_334));
  } else throw new Error(`unknown op ${op}`);
  // how long the operation took: the parent draws its random kill moments within it
  process.stdout.write(`done ${Math.round(performance.now() - started)}\n`);
} catch (err) {
  process.stdout.write(`refused ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 3;
}
store.close();
