// The floor a session reader is compared with: read the file and JSON.parse every line (keeping the
// values, as a reader does), nothing else. Prints the number of values parsed. CommonJS, as the
// smallest Node program that does this is (an ES module would add Node's ES module loader).
"use strict";
const { readFileSync } = require("node:fs");

const text = readFileSync(process.argv[2], "utf8");
const values = [];
let pos = 0;
while (pos < text.length) {
  let nl = text.indexOf("\n", pos);
  if (nl === -1) nl = text.length;
  if (nl > pos) values.push(JSON.parse(text.slice(pos, nl)));
  pos = nl + 1;
}
process.stdout.write(`${values.length}\n`);
