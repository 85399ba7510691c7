/** A keyboard-only walk: open a session, move along the tree, inspect, open every panel and dialog. */
import type { Page } from "@playwright/test";
import { expect, generatedSessionFile, screenshot, test } from "./explorer-fixtures";

const selected = (page: Page) => page.locator('[data-selected="true"]');

async function selectedId(page: Page): Promise<string> {
  await expect(selected(page)).toHaveCount(1);
  return (await selected(page).getAttribute("data-testid")) ?? "";
}

test("keyboard-only walk through the explorer", async ({ app: page }, testInfo) => {
  const file = await generatedSessionFile(testInfo, "Keyboard fixture", { entries: 200, seed: 41, compactionInterval: 80 });
  // (the file chooser itself is the operating system's; everything after it is keyboard only)
  await page.getByTestId("import-input").setInputFiles(file);
  const item = page.getByTestId("session-item").filter({ hasText: "Keyboard fixture" });
  await expect(item).toBeVisible();

  for (let i = 0; i < 30; i++) {
    await page.keyboard.press("Tab");
    if (await item.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(item).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("explorer")).toBeVisible();
  await expect(page.getByTestId("tree-canvas")).toBeFocused();

  // L selects the leaf; arrows walk up and down
  await page.keyboard.press("l");
  const leaf = page.locator('[data-leaf="true"]');
  await expect(leaf).toHaveAttribute("data-selected", "true");
  const leafTestId = (await leaf.getAttribute("data-testid")) ?? "";
  await page.keyboard.press("ArrowUp");
  const up = await selectedId(page);
  expect(up).not.toBe(leafTestId);
  if (up.startsWith("tree-segment-")) {
    // Enter opens a collapsed run and selects its first entry
    await page.keyboard.press("Enter");
    await expect(page.getByTestId(up)).toHaveCount(0);
    expect(await selectedId(page)).toBe(`tree-node-${up.slice("tree-segment-".length)}`);
    await page.keyboard.press("ArrowDown");
  }
  const entry = await selectedId(page);
  expect(entry.startsWith("tree-node-")).toBe(true);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-entry-id", entry.slice("tree-node-".length));
  await screenshot(page, testInfo, "keyboard-inspect");

  // panels by letter
  for (const [key, panel] of [["w", "context"], ["c", "compact"], ["p", "prune"], ["i", "inspect"]] as const) {
    await page.keyboard.press(key);
    await expect(page.getByTestId("side-panel")).toHaveAttribute("data-panel", panel);
  }

  // S opens the switch dialog for the selected entry; Escape cancels it and the leaf stays
  await page.keyboard.press("s");
  await expect(page.getByTestId("switch-dialog")).toBeVisible();
  await expect(page.getByTestId("switch-summarize")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("switch-dialog")).toBeHidden();
  await expect(page.getByTestId("tree-status")).toHaveAttribute("data-leaf-id", leafTestId.slice("tree-node-".length));

  // / opens search with the focus in its field; Escape closes it
  await page.keyboard.press("/");
  await expect(page.getByTestId("search-input")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("search-panel")).toBeHidden();

  // , opens the preferences; Escape closes them
  await page.keyboard.press(",");
  await expect(page.getByTestId("preferences")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("preferences")).toBeHidden();

  // F fits the tree, L comes back to the leaf
  await page.keyboard.press("f");
  await page.keyboard.press("l");
  await expect(leaf).toHaveAttribute("data-selected", "true");
  await expect(leaf).toBeInViewport();
  await screenshot(page, testInfo, "keyboard-leaf");
});
