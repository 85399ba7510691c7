/**
 * Accessibility of the main screens with axe-core, in both themes: the first run, the tree, the
 * transcript, the side panels, the palette, the keyboard help, preferences and the session menu.
 * No serious or critical violation.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { sharedFixture } from "../support/paths";
import { expect, generatedSessionFile, importAndOpen, setTheme, test } from "./explorer-fixtures";

/** a real Claude Code transcript (read-only in Bonsai), when the shared fixtures are next to the checkout */
const CLAUDE = sharedFixture("real/claude-code/entireio__cli__cd_95adddad32_0_full.jsonl");

async function serious(page: Page, screen: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`),
    `${screen}: serious or critical accessibility violations`,
  ).toEqual([]);
}


for (const theme of ["light", "dark"] as const) {
  test(`main screens have no serious accessibility violations (${theme})`, async ({ app: page }, testInfo) => {
    test.setTimeout(120_000);
    await setTheme(page, theme);
    await serious(page, "first run");

    const file = await generatedSessionFile(testInfo, `A11y ${theme}`, { entries: 200, seed: 101, compactionInterval: 70, branchProbability: 0.15 });
    await importAndOpen(page, file, `A11y ${theme}`);
    await page.locator('[data-leaf="true"]').click();
    await expect(page.getByTestId("inspector")).toHaveAttribute("data-loaded", "true");
    await serious(page, "tree and inspector");
    await page.getByTestId("zoom-fit").click();
    await serious(page, "tree fitted");

    for (const tab of ["context", "compact", "prune"]) {
      await page.getByTestId(`tab-${tab}`).click();
      await expect(page.getByTestId("side-panel")).toHaveAttribute("data-panel", tab);
      await page.waitForTimeout(300);
      await serious(page, `panel ${tab}`);
    }
    await page.getByTestId("view-transcript").click();
    await expect(page.getByTestId("transcript-message").first()).toBeVisible();
    await serious(page, "transcript");

    await page.keyboard.press("Control+k");
    await expect(page.getByTestId("command-palette")).toBeVisible();
    await serious(page, "command palette");
    await page.keyboard.press("Escape");
    await page.getByTestId("open-help").click();
    await serious(page, "keyboard help");
    await page.keyboard.press("Escape");
    await page.getByTestId("open-preferences").click();
    await expect(page.getByTestId("preferences")).toBeVisible();
    await serious(page, "preferences");
    await page.getByTestId("preferences-close").click();
    await page.getByTestId("session-menu").first().click();
    await serious(page, "session menu");
    await page.keyboard.press("Escape");

    if (CLAUDE) {
      // a Claude Code session: the agent badge in the list, the read-only notice with Continue in pi
      await page.getByTestId("import-input").setInputFiles(CLAUDE);
      await expect(page.getByTestId("import-result")).toContainText("Imported 1 of 1 file");
      await page.getByTestId("session-item").filter({ hasText: "Claude Code" }).click();
      await expect(page.getByTestId("read-only-notice")).toBeVisible();
      await page.getByTestId("tab-compact").click();
      await expect(page.getByTestId("compaction-panel").getByTestId("read-only-action")).toBeVisible();
      await serious(page, "read-only Claude Code session");
    }
  });
}
