/**
 * A simulated coding agent for the fault suite: appends its own chain of v3 message entries to a
 * session file every MIN..MAX ms until it is sent SIGTERM, then prints the ids it wrote.
 *   node --import tsx agent.ts <file> <mode> <minMs> <maxMs> <idPrefix> <firstParent|->
 * Modes:
 *   lines  open, append one whole line, close (what pi does: fs.appendFileSync)
 *   split  each line in two appends with a pause between them (a writer that tears lines)
 *   held   one descriptor kept open for all lines (a writer that never reopens the file)
 * Prints "ready" after its first line, "w <id>" per line written, and "done <n>" when stopped.
 */
import fs from "node:fs";

const [file, mode, minArg, maxArg, prefix, firstParent] = process.argv.slice(2);
if (!file || !mode || !minArg || !maxArg || !prefix || !firstParent) throw new Error("usage: agent.ts <file> <mode> <minMs> <maxMs> <idPrefix> <firstParent|->");
const minMs = Number(minArg);
const maxMs = Number(maxArg);
let parent: string | null = firstParent === "-" ? null : firstParent;
let stopping = false;
process.on("SIGTERM", () => (stopping = true));
const target: string = file;
const held = mode === "held" ? fs.openSync(target, "a") : null;
const pause = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function lineFor(n: number): string {
  const id = `${prefix}${n.toString(36).padStart(4, "0")}`;
  const entry = {
    type: "message",
    id,
    parentId: parent,
    timestamp: new Date().toISOString(),
    message: { role: "user", content: `agent line ${n}: ${"working ".repeat(1 + (n % 40))}`, timestamp: Date.now() },
  };
  parent = id;
  return `${JSON.stringify(entry)}\n`;
}

function write(text: string): void {
  if (held !== null) fs.writeSync(held, text);
  else fs.appendFileSync(target, text);
}

let n = 0;
function step(): void {
  if (stopping) {
    process.stdout.write(`done ${n}\n`);
    if (held !== null) fs.closeSync(held);
    return;
  }
  const text = lineFor(n);
  if (mode === "split") {
    const cut = 1 + Math.floor(Math.random() * (text.length - 2));
    write(text.slice(0, cut));
    pause(Math.random() * 3);
    write(text.slice(cut));
  } else write(text);
  process.stdout.write(`w ${parent}\n`);
  if (n === 0) process.stdout.write("ready\n");
  n++;
  setTimeout(step, minMs + Math.random() * (maxMs - minMs));
}
step();
