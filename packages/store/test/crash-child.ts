/**
 * Child process of crash.test.ts: imports a file, or appends entries forever, until the parent
 * kills it with SIGKILL. Prints "ready" when the interesting work starts.
 *   node --import tsx crash-child.ts import <db> <file>
 *   node --import tsx crash-child.ts append <db> <sessionId>
 */
import { openStore } from "../src/index";

const [mode, db, arg] = process.argv.slice(2);
if (!mode || !db || !arg) throw new Error("usage: crash-child.ts import|append <db> <file|sessionId>");
const store = openStore({ path: db });
if (mode === "import") {
  process.stdout.write("ready\n");
  await store.importFile(arg);
  process.stdout.write("done\n");
} else {
  process.stdout.write("ready\n");
  for (let i = 0; ; i++) {
    store.appendEntry(arg, {
      type: "message",
      message: { role: "user", content: `append ${i} ${"x".repeat(i % 500)}`, timestamp: Date.now() },
    });
    if (i % 25 === 0) await new Promise((r) => setImmediate(r));
  }
}
