// pi's own session code on a session file, as pi opens a session: SessionManager.open (reads and
// migrates the file, builds its index) + buildSessionContext (what the model sees from the leaf).
// Prints the number of context messages. Run by compare.bench.ts as a whole process.
import { SessionManager } from "@mariozechner/pi-coding-agent";

const file = process.argv[2];
if (!file) {
  process.stderr.write("usage: node pi-context.mjs SESSION.jsonl\n");
  process.exit(2);
}
const session = SessionManager.open(file);
const context = session.buildSessionContext();
process.stdout.write(`${context.messages.length}\n`);
