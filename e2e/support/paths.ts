import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Debian's Chromium (`apt-get install -y chromium`); never a Playwright browser download. */
export const CHROMIUM_PATH = process.env.BONSAI_CHROMIUM ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
export const CLI = path.join(REPO_ROOT, "apps/cli/bin/bonsai.cjs");
export const ELECTRON_MAIN = path.join(REPO_ROOT, "apps/desktop/out/main/index.js");
/** Shared test data lives next to the checkout (../shared) and is never copied into it. */
export const SHARED_FIXTURES = path.resolve(REPO_ROOT, "../shared/fixtures");

export function sharedFixture(name: string): string | null {
  const file = path.join(SHARED_FIXTURES, name);
  return fs.existsSync(file) ? file : null;
}

/** The Electron binary, when the electron package could download it (not in CI). */
export function electronBinary(): string | null {
  try {
    const pkgDir = path.join(REPO_ROOT, "apps/desktop/node_modules/electron");
    const rel = fs.readFileSync(path.join(pkgDir, "path.txt"), "utf8").trim();
    const bin = path.join(pkgDir, "dist", rel);
    return fs.existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}
