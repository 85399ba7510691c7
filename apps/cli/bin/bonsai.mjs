#!/usr/bin/env node
// The `bonsai` command as an ES module, for whoever runs this path: it runs bin/bonsai.cjs, the
// package's entry (an ES module entry loads Node's ES module loader at every start; the CommonJS
// one does not).
import { createRequire } from "node:module";

createRequire(import.meta.url)("./bonsai.cjs");
