/**
 * The explorer benchmark (not part of `pnpm test`): opens generated 10,000- and 100,000-entry
 * sessions in browser mode and reports time to the first visible tree and to the inspector after
 * a click. Run after `pnpm build`:
 *   pnpm exec playwright test -c e2e/bench/playwright.config.ts
 * Figures go into docs/PERFORMANCE.md (section "explorer").
 */
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../support/paths";
import type { BonsaiOptions } from "../support/fixtures";

export default defineConfig<BonsaiOptions>({
  testDir: ".",
  testMatch: /.*\.bench\.ts/,
  outputDir: "../../.test-results/e2e-bench",
  timeout: 900_000,
  expect: { timeout: 120_000 },
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    viewport: { width: 1400, height: 900 },
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    target: "browser",
  },
});
