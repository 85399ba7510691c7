/** Every screen of the explorer in light and dark, at 1440x900 (see playwright.config.ts here). */
import * as fs from "node:fs";
import * as path from "node:path";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import type { Page } from "@playwright/test";
import { REPO_ROOT } from "../support/paths";
import { expect, generatedSessionFile, goToEntry, importAndOpen, setTheme, test } from "../specs/explorer-fixtures";

const dir = process.env.SCREENS_DIR ?? path.join(REPO_ROOT, ".test-results/screens");
fs.mkdirSync(dir, { recursive: true });

/** The screen `name` in both themes; a dialog is opened after the theme is set and closed after the shot. */
async function both(page: Page, name: string, open: () => Promise<void> = async () => undefined, close: () => Promise<void> = async () => undefined): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await setTheme(page, theme);
    await open();
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(dir, `${name}-${theme}.png`) });
    await close();
  }
}

test("every screen, both themes", async ({ app: page, bonsai }, testInfo) => {
  await both(page, "01-first-run");
  const file = await generatedSessionFile(testInfo, "Screens session", { entries: 600, seed: 7, compactionInterval: 150, branchProbability: 0.15 });
  const other = await generatedSessionFile(testInfo, "Another project", { entries: 120, seed: 8, cwd: "/home/dev/other" }, undefined, bonsai.sessionsDir);
  await bonsai.call("importSessions", { paths: [other] });
  await importAndOpen(page, file, "Screens session");
  await page.getByTestId("zoom-leaf").click();
  await page.locator('[data-leaf="true"]').click();
  await both(page, "02-tree-inspector");
  await page.getByTestId("zoom-fit").click();
  await both(page, "03-tree-fit-overview");
  await page.getByTestId("zoom-leaf").click();
  await page.getByTestId("tab-context").click();
  await both(page, "04-what-the-model-sees-leaf");
  const compaction = await page.locator('[data-kind="compaction"]').first().getAttribute("data-testid");
  if (compaction) {
    await goToEntry(page, compaction.replace("tree-node-", ""));
    await page.getByTestId("tab-context").click();
    await both(page, "05-what-the-model-sees-from-a-compaction");
  }
  await page.getByTestId("zoom-leaf").click();
  await page.getByTestId("tab-compact").click();
  await expect(page.getByTestId("compaction-plan")).toBeVisible();
  await both(page, "06-compact-plan-shaded");
  await page.getByTestId("compaction-dry-run").click();
  await expect(page.getByTestId("dry-run-result")).toBeVisible({ timeout: 60_000 });
  await both(page, "07-dry-run");
  await page.getByTestId("dry-run-discard").click();
  await page.getByTestId("tab-prune").click();
  await both(page, "08-prune");
  await page.getByTestId("view-transcript").click();
  await both(page, "09-transcript");
  await page.getByTestId("view-tree").click();
  const escape = () => page.keyboard.press("Escape");
  await both(page, "10-command-palette", () => page.keyboard.press("Control+k"), escape);
  await both(page, "11-keyboard-help", () => page.getByTestId("open-help").click(), escape);
  const menu = () => page.getByTestId("session-row").first().getByTestId("session-menu").click();
  await both(page, "12-session-menu", menu, escape);
  await both(page, "13-remove-dialog", async () => (await menu(), await page.getByTestId("session-menu-remove").click()), () => page.getByTestId("remove-cancel").click());
  await both(page, "14-rename", async () => (await menu(), await page.getByTestId("session-menu-rename").click()), escape);
  await page.locator('[data-leaf="true"]').click();
  await page.getByTestId("label-input").fill("checkpoint");
  await page.getByTestId("label-save").click();
  await page.getByTestId("composer-input").fill("continue");
  await page.getByTestId("composer-send").click();
  await both(page, "15-notifications-undo");

  // Fit on 100,000 entries
  const big = path.join(bonsai.sessionsDir, "screens-100k.jsonl");
  const session = generateSession({ entries: 100_000, seed: 100, contentScale: 0.25 });
  session.header.title = "Screens 100k";
  await writeSessionJsonl(big, session);
  await bonsai.call("importSessions", { paths: [big] });
  await page.reload();
  await page.getByTestId("session-item").filter({ hasText: "Screens 100k" }).click();
  await expect(page.locator(".react-flow__node").first()).toBeVisible({ timeout: 60_000 });
  await both(page, "16-100k-open-at-leaf");
  await page.getByTestId("zoom-fit").click();
  await both(page, "17-100k-fit");
});
