/** Prune: what would be replaced and the tokens saved, apply, inspect the kept original, restore. */
import { expect, generatedSessionFile, importAndOpen, screenshot, test } from "./explorer-fixtures";

test("prune old tool outputs and restore them", async ({ app: page }, testInfo) => {
  // large tool outputs and no compaction: well over the 40,000 protected tokens
  const file = await generatedSessionFile(testInfo, "Prune fixture", { entries: 400, seed: 5, compactionInterval: 0, branchProbability: 0.08, contentScale: 4 });
  await importAndOpen(page, file, "Prune fixture");

  await page.getByTestId("tab-prune").click();
  await expect(page.getByTestId("prune-summary")).toBeVisible();
  const count = Number(await page.getByTestId("prune-count").textContent());
  const saved = Number((await page.getByTestId("prune-saved").textContent())?.replace(/,/gu, ""));
  expect(count).toBeGreaterThan(0);
  expect(saved).toBeGreaterThanOrEqual(20_000);
  await expect(page.getByTestId("prune-item")).toHaveCount(count);
  await expect(page.getByTestId("pruned-count")).toHaveText("0");
  await screenshot(page, testInfo, "prune-plan");

  await page.getByTestId("prune-apply").click();
  await expect(page.getByTestId("pruned-count")).toHaveText(String(count));
  await expect(page.getByTestId("prune-nothing")).toBeVisible();

  // a pruned output: marked in the tree, its original kept and shown by the inspector
  const first = page.getByTestId("pruned-item").first();
  const entryId = (await first.locator(".bz-link").textContent()) ?? "";
  await first.locator(".bz-link").click();
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-entry-id", entryId);
  await expect(page.getByTestId(`tree-node-${entryId}`).getByTestId("badge-pruned")).toBeVisible();
  await expect(page.getByTestId("inspector")).toContainText("[Output truncated - ");
  await expect(page.getByTestId("inspector-pruned-original")).toBeVisible();
  await screenshot(page, testInfo, "pruned-entry");

  // restore one from the inspector, then the rest from the panel
  await page.getByTestId("inspector-restore").click();
  await expect(page.getByTestId("inspector-pruned-original")).toBeHidden();
  await expect(page.getByTestId(`tree-node-${entryId}`).getByTestId("badge-pruned")).toBeHidden();
  await page.getByTestId("tab-prune").click();
  await expect(page.getByTestId("pruned-count")).toHaveText(String(count - 1));
  await page.getByTestId("prune-restore-all").click();
  await expect(page.getByTestId("pruned-count")).toHaveText("0");
  await expect(page.getByTestId("prune-count")).toHaveText(String(count));
});
