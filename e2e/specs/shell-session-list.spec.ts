/**
 * The session list: grouped by project folder, with counts; filter and sort; a title given in
 * Bonsai (kept after a reload, never written to the agent's file); remove from Bonsai, which says
 * the agent's file is kept (and keeps it); export entries in each session's menu.
 */
import * as fs from "node:fs";
import { expect, generatedSessionFile, screenshot, test } from "./explorer-fixtures";

test("rename, filter, sort, group, count, and remove from Bonsai", async ({ app: page, bonsai }, testInfo) => {
  const dir = bonsai.sessionsDir;
  const alpha = await generatedSessionFile(testInfo, "Alpha parser work", { entries: 180, seed: 61, cwd: "/home/dev/alpha", compactionInterval: 60, branchProbability: 0.2 }, undefined, dir);
  const beta = await generatedSessionFile(testInfo, "Beta build fixes", { entries: 90, seed: 62, cwd: "/home/dev/beta", compactionInterval: 0 }, undefined, dir);
  const gamma = await generatedSessionFile(testInfo, "Gamma notes", { entries: 40, seed: 63, cwd: "/home/dev/alpha", compactionInterval: 0 }, undefined, dir);
  // imported by path: the files are the agent's, and Bonsai must not change them for a title
  await bonsai.call("importSessions", { paths: [alpha, beta, gamma] });
  const alphaBytes = fs.readFileSync(alpha);
  await page.reload();
  const items = page.getByTestId("session-item");
  await expect(items).toHaveCount(3);

  // grouped by project folder, with counts (entries, compactions, branches, tokens in context)
  const groups = page.getByTestId("session-group");
  await expect(groups).toHaveCount(2);
  await expect(groups.filter({ hasText: "alpha" }).getByTestId("session-item")).toHaveCount(2);
  const alphaRow = page.getByTestId("session-row").filter({ hasText: "Alpha parser work" });
  await expect(alphaRow.getByTestId("session-entry-count")).toHaveText("180");
  await expect(alphaRow.getByTestId("session-compaction-count")).toHaveText(/^[1-9]\d*$/u);
  await expect(alphaRow.getByTestId("session-branches")).toHaveText(/^([2-9]|\d{2,})$/u);
  await expect(alphaRow.getByTestId("session-tokens")).toHaveText(/\d/u);
  await screenshot(page, testInfo, "session-list-light");

  // filter and sort
  await page.getByTestId("session-filter").fill("beta");
  await expect(items).toHaveCount(1);
  await expect(page.getByTestId("session-count")).toHaveText("1 of 3 sessions");
  await page.getByTestId("session-filter").fill("");
  await page.getByTestId("session-sort").selectOption("entries");
  await expect(page.getByTestId("session-group").first()).toHaveAttribute("data-folder", "/home/dev/alpha");
  await expect(page.getByTestId("session-group").first().getByTestId("session-item").first()).toContainText("Alpha parser work");

  // rename (kept in Bonsai): the menu, Enter saves; a reload keeps it; the file is unchanged
  await alphaRow.getByTestId("session-menu").click();
  await page.getByTestId("session-menu-rename").click();
  await page.getByTestId("session-rename-input").fill("The parser rewrite");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("session-item").filter({ hasText: "The parser rewrite" })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("session-item").filter({ hasText: "The parser rewrite" })).toBeVisible();
  expect(fs.readFileSync(alpha).equals(alphaBytes)).toBe(true);
  // the export entries are in the menu
  const renamed = page.getByTestId("session-row").filter({ hasText: "The parser rewrite" });
  await renamed.getByTestId("session-menu").click();
  await expect(page.getByTestId("session-menu-export-jsonl")).toBeVisible();
  await expect(page.getByTestId("session-menu-export-markdown")).toBeVisible();
  await page.keyboard.press("Escape");

  // remove from Bonsai: it says the agent's file is kept, and keeps it
  const betaRow = page.getByTestId("session-row").filter({ hasText: "Beta build fixes" });
  await betaRow.getByTestId("session-menu").click();
  await page.getByTestId("session-menu-remove").click();
  const dialog = page.getByTestId("remove-dialog");
  await expect(dialog).toContainText("The agent's session file is kept.");
  await expect(dialog).toContainText(beta);
  await screenshot(page, testInfo, "remove-dialog-light");
  await page.getByTestId("remove-confirm").click();
  await expect(page.getByTestId("session-item")).toHaveCount(2);
  await expect(page.getByTestId("notification").filter({ hasText: "removed from Bonsai; the agent's session file is kept" })).toBeVisible();
  expect(fs.existsSync(beta)).toBe(true);
});
