// The end-to-end tests drive Debian's Chromium (/usr/bin/chromium, or BONSAI_CHROMIUM), never a
// Playwright browser download. ensureChromium() makes sure it is there before anything is built:
// as root with apt-get it installs it as .ci/run does; otherwise it says the one command to run.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";

export const CHROMIUM_PATH = process.env.BONSAI_CHROMIUM ?? "/usr/bin/chromium";
const INSTALL = "apt-get update && apt-get install -y chromium";

function hasCommand(cmd) {
  return spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
}

/** true when Chromium is (now) installed; false with the reason printed when it cannot be */
export function ensureChromium() {
  if (fs.existsSync(CHROMIUM_PATH)) return true;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (root && hasCommand("apt-get") && !process.env.BONSAI_CHROMIUM) {
    console.log(`Chromium is missing (${CHROMIUM_PATH}): installing it with apt (${INSTALL})…`);
    const r = spawnSync("sh", ["-c", INSTALL], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    if (r.status === 0 && fs.existsSync(CHROMIUM_PATH)) return true;
    console.error(`Installing Chromium failed (exit ${r.status}); the end-to-end tests need it.`);
    return false;
  }
  const how = process.env.BONSAI_CHROMIUM
    ? `BONSAI_CHROMIUM points there; unset it to use Debian's Chromium, installed with:\n\n  sudo sh -c '${INSTALL}'`
    : `Install it with:\n\n  sudo sh -c '${INSTALL}'`;
  console.error(`The end-to-end tests need Chromium at ${CHROMIUM_PATH}, which is missing. ${how}\n\nthen run the tests again (or only the other parts: pnpm test build static unit diffcheck).`);
  return false;
}
