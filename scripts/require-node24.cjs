// Bonsai's Node floor, checked before anything else runs (no native module is loaded here):
//   node scripts/require-node24.cjs        first in every root script of package.json (and preinstall)
//   require("./scripts/require-node24.cjs") from .pnpmfile.cjs, which pnpm loads first for any command
// On a Node older than 24 it prints one line naming scripts/node24.sh and the command to run
// through it, and exits with status 1. Written in the plain JavaScript old Nodes can still parse.
"use strict";

var FLOOR = 24;

/** The one line for `pnpm <command>` on this Node, or null when this Node is new enough. */
function floorMessage(version, command) {
  if (Number(String(version).replace(/^v/, "").split(".")[0]) >= FLOOR) return null;
  return "bonsai: needs Node " + FLOOR + " or newer, not " + version + "; run it as `scripts/node24.sh pnpm " + command + "`";
}

/** Exits with the one line when this Node is older than the floor. */
function requireNode24(command) {
  var message = floorMessage(process.version, command);
  if (message === null) return;
  process.stderr.write(message + "\n");
  process.exit(1);
}

module.exports = { floorMessage: floorMessage, requireNode24: requireNode24 };

if (require.main === module) {
  // a root script (pnpm sets npm_lifecycle_event to its name); pnpm install runs preinstall
  var event = process.env.npm_lifecycle_event;
  requireNode24(!event || event === "preinstall" ? "install" : event);
}
