/**
 * Screenshots of every screen of the app in both themes at 1440x900 (not part of `pnpm test`): a
 * person looks at them after a change to the UI. Run after `pnpm build`:
 *   pnpm exec playwright test -c e2e/screens/playwright.config.ts
 * They are written to .test-results/screens/ (SCREENS_DIR to choose another folder).
 */
import { defineConfig } from "@playwright/test";
import e2e from "../playwright.config";

export default defineConfig(e2e, {
  testDir: ".",
  testMatch: /.*\.screens\.ts/,
  outputDir: "../../.test-results/screens-run",
  timeout: 600_000,
  workers: 1,
  use: { viewport: { width: 1440, height: 900 } },
  projects: [{ name: "chromium", use: { target: "browser" } }],
});
