/**
 * Child process of follower-commit.test.ts: the live follower on its own connection (as the app's
 * store worker is), reading FILE again and again until STOP exists; prints "ready", then "done N".
 *   node --import tsx follow-child.ts <db> <file> <stop>
 */
import fs from "node:fs";
import { openStore } from "../../src/index";

const [db, file, stop] = process.argv.slice(2);
if (!db || !file || !stop) throw new Error("usage: follow-child.ts <db> <file> <stop>");
const store = openStore({ path: db });
const session = store.listSessions().find((s) => s.sourcePath === file);
if (!session) throw new Error(`no session for ${file}`);
process.stdout.write("ready\n");
let syncs = 0;
while (!fs.existsSync(stop)) {
  store.followFile({ sessionId: session.id, file });
  syncs++;
  await new Promise((r) => setTimeout(r, Math.random() * 3));
}
store.close();
process.stdout.write(`done ${syncs}\n`);
