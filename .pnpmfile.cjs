// pnpm loads this file first for every command it runs in this checkout (install, run, exec, ...):
// on a Node older than 24 it stops there with one line naming scripts/node24.sh, before pnpm links,
// builds or loads anything (scripts/require-node24.cjs). It changes no package.
"use strict";
const { requireNode24 } = require("./scripts/require-node24.cjs");

requireNode24(process.argv.slice(2).join(" ") || "install");

module.exports = { hooks: {} };
