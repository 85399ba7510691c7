/**
 * The README's test command on a machine without Chromium: scripts/test-all.mjs stops at once (before
 * building anything) with the one command that installs it, instead of failing the end-to-end suite.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");

describe("pnpm test without Chromium", () => {
  it("stops at once and says how to install it", () => {
    const started = Date.now();
    const r = spawnSync(process.execPath, ["scripts/test-all.mjs", "e2e"], { cwd: root, encoding: "utf8", env: { ...process.env, BONSAI_CHROMIUM: "/nonexistent/chromium" } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("The end-to-end tests need Chromium at /nonexistent/chromium, which is missing.");
    expect(r.stderr).toContain("apt-get install -y chromium");
    expect(r.stdout).not.toContain("$ pnpm exec playwright");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
