/**
 * End-to-end tests: browser mode (`bonsai serve`) in Debian's Chromium everywhere; the same specs
 * against the Electron app where an Electron binary is installed (project "electron", skipped
 * otherwise). Build first (`pnpm build`; `pnpm test` does it): the fixtures start what was built.
 */
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./support/paths";
import type { BonsaiOptions } from "./support/fixtures";

export default defineConfig<BonsaiOptions>({
  testDir: "specs",
  outputDir: "../.test-results/e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  retries: 0,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    viewport: { width: 1400, height: 900 },
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  projects: [
    { name: "chromium", use: { target: "browser" } },
    // specs written on support/fixtures.ts run against Electron too (skipped where no binary is installed)
    { name: "electron", use: { target: "electron" }, testMatch: /shell-.*\.spec\.ts/ },
  ],
});
