/**
 * Child process of session-lock.test.ts, a second Bonsai process on the same data folder:
 *   node --import tsx lock-child.ts hold <db> <sessionId>   takes the session's write lock, prints "held", keeps it until killed
 *   node --import tsx lock-child.ts open <db>               opens the store (a first run: creates and migrates it), prints "opened"
 */
import { openStore } from "../src/index";
import { sleepSync } from "../src/source/bytes";
import { SessionLocks } from "../src/source/session-lock";

const [mode, db, sessionId] = process.argv.slice(2);
if (!mode || !db) throw new Error("usage: lock-child.ts hold|open <db> [sessionId]");
const store = openStore({ path: db, backgroundIndexing: false });
if (mode === "open") {
  store.close();
  process.stdout.write("opened\n");
} else {
  if (!sessionId) throw new Error("hold needs a session id");
  new SessionLocks(store.db).run(sessionId, () => {
    process.stdout.write("held\n");
    for (;;) sleepSync(1000);
  });
}
