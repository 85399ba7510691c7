/**
 * Keyboard and layout comforts: "?" keyboard help, the command palette (Ctrl/Cmd+K) with every
 * action, Tab into the tree with the arrows moving the selection and the inspector following at
 * once, and resizable panes whose sizes are remembered.
 */
import { expect, generatedSessionFile, importAndOpen, screenshot, test } from "./explorer-fixtures";

test("? opens the keyboard help; Ctrl+K the palette, which runs commands", async ({ app: page }, testInfo) => {
  const file = await generatedSessionFile(testInfo, "Palette fixture", { entries: 150, seed: 51, compactionInterval: 60 });
  await importAndOpen(page, file, "Palette fixture");
  await page.getByTestId("tree-canvas").focus();

  await page.keyboard.press("?");
  const help = page.getByTestId("keyboard-help");
  await expect(help).toBeVisible();
  await expect(help).toContainText("Move the selection");
  await expect(help).toContainText("Ctrl+K");
  await expect(help.getByTestId("keyboard-help-close")).toBeFocused();
  await screenshot(page, testInfo, "keyboard-help-light");
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();

  await page.keyboard.press("Control+k");
  const palette = page.getByTestId("command-palette");
  await expect(palette).toBeVisible();
  await expect(page.getByTestId("palette-input")).toBeFocused();
  // every action is there (those that cannot run now are hidden: undo, switch branch, label without a selection)
  const titles = await page.getByTestId("palette-item").allTextContents();
  for (const title of ["Read the transcript", "What the model sees", "Compact at the leaf", "Prune old tool outputs", "Zoom to fit", "Export the session as Markdown", "Rename the session", "Remove the session from Bonsai", "Search all sessions", "Preferences", "Import session files", "Keyboard help"]) {
    expect(titles.some((t) => t.includes(title)), title).toBe(true);
  }
  await page.getByTestId("palette-input").fill("transcript");
  await expect(page.getByTestId("palette-item")).toHaveCount(1);
  await screenshot(page, testInfo, "palette-light");
  await page.keyboard.press("Enter");
  await expect(palette).toBeHidden();
  await expect(page.getByTestId("transcript")).toBeVisible();

  // Cmd+K too, and arrows choose in the list
  await page.keyboard.press("Meta+k");
  await expect(palette).toBeVisible();
  await page.getByTestId("palette-input").fill("what the model");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("side-panel")).toHaveAttribute("data-panel", "context");
});

test("Tab reaches the tree; the arrows move the selection and the inspector follows at once", async ({ app: page }, testInfo) => {
  const file = await generatedSessionFile(testInfo, "Tab fixture", { entries: 150, seed: 52, compactionInterval: 0, branchProbability: 0.2 });
  await importAndOpen(page, file, "Tab fixture");
  await page.getByTestId("session-filter").focus();
  const canvas = page.getByTestId("tree-canvas");
  for (let i = 0; i < 40 && !(await canvas.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(canvas).toBeFocused();

  await page.keyboard.press("l");
  const inspector = page.getByTestId("inspector");
  const leaf = (await page.getByTestId("tree-status").getAttribute("data-leaf-id"))!;
  await expect(inspector).toHaveAttribute("data-entry-id", leaf);
  const seen = new Set<string>([leaf]);
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press("ArrowUp");
    const selected = page.locator('[data-selected="true"]');
    await expect(selected).toHaveCount(1);
    const testId = (await selected.getAttribute("data-testid"))!;
    if (testId.startsWith("tree-node-")) {
      const id = testId.slice("tree-node-".length);
      // no Enter: the inspector shows the node right away, and its entry a moment later
      await expect(inspector).toHaveAttribute("data-entry-id", id);
      await expect(inspector).toHaveAttribute("data-loaded", "true");
      seen.add(id);
    } else {
      await expect(page.getByTestId("inspector-segment")).toBeVisible();
    }
  }
  expect(seen.size).toBeGreaterThan(1);
  await expect(canvas).toBeFocused();
  await expect(page.getByTestId("tree-selection-status")).not.toBeEmpty();
});

test("panes are resizable (mouse and keyboard) and keep their size", async ({ app: page }, testInfo) => {
  const file = await generatedSessionFile(testInfo, "Panes fixture", { entries: 80, seed: 53 });
  await importAndOpen(page, file, "Panes fixture");
  const side = page.getByTestId("side-panel");
  const before = (await side.boundingBox())!.width;
  const handle = page.getByTestId("splitter-side");
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x - 120, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const wider = (await side.boundingBox())!.width;
  expect(wider).toBeGreaterThan(before + 80);

  const sidebar = page.locator(".app__sidebar");
  const listBefore = (await sidebar.boundingBox())!.width;
  await page.getByTestId("splitter-sidebar").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  expect((await sidebar.boundingBox())!.width).toBe(listBefore + 32);

  await page.reload();
  await page.getByTestId("session-item").filter({ hasText: "Panes fixture" }).click();
  await expect(page.getByTestId("side-panel")).toBeVisible();
  expect(Math.round((await page.getByTestId("side-panel").boundingBox())!.width)).toBe(Math.round(wider));
  expect((await page.locator(".app__sidebar").boundingBox())!.width).toBe(listBefore + 32);
});
