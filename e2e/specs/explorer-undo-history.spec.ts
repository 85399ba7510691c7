/**
 * Undo as people expect (issue 44): three different changes made in Bonsai — a branch switch, a
 * compaction and a label — undone one by one (the buttons and Ctrl+Z) and redone (Ctrl+Shift+Z and
 * the button), each step checked in the agent's file (its last line is where pi resumes) and in the
 * session list, where an undone compaction is not counted. Screenshots at 1024 px, light and dark.
 * And Undo after a restart: a compaction made before `bonsai serve` stopped is undone by the next one.
 */
import * as fs from "node:fs";
import type { Page, TestInfo } from "@playwright/test";
import { expect, generatedSessionFile, goToEntry, leafNode, screenshot, setTheme, test } from "./explorer-fixtures";

interface Line {
  id: string;
  type: string;
  parentId: string | null;
  customType?: string;
  targetId?: string;
  label?: string;
  data?: { undid?: string; redid?: string; entryId?: string | null };
}
const lastLine = (file: string) => JSON.parse(fs.readFileSync(file, "utf8").trimEnd().split("\n").at(-1)!) as Line;

async function shoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.setViewportSize({ width: 1024, height: 800 });
  for (const theme of ["light", "dark"] as const) {
    await setTheme(page, theme);
    await screenshot(page, testInfo, `${name}-1024-${theme}`);
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

/** a generated session (no compaction, no branch) written to the agents' folder, imported, and opened; its file and its list item */
async function openGenerated(page: Page, bonsai: { sessionsDir: string; call(method: string, params?: unknown): Promise<unknown> }, testInfo: TestInfo, title: string, entries: number, seed: number) {
  const file = await generatedSessionFile(testInfo, title, { entries, seed, compactionInterval: 0, branchProbability: 0 }, undefined, bonsai.sessionsDir);
  await bonsai.call("importSessions", { paths: [file] });
  await page.reload();
  const item = page.getByTestId("session-item").filter({ hasText: title });
  await item.click();
  await expect(leafNode(page)).toBeVisible();
  return { file, item };
}

test("a branch switch, a compaction and a label are undone one by one and redone", async ({ app: page, bonsai }, testInfo) => {
  test.setTimeout(120_000);
  const { file, item } = await openGenerated(page, bonsai, testInfo, "Undo history fixture", 220, 92);
  const status = page.getByTestId("tree-status");
  const leafNow = async () => (await status.getAttribute("data-leaf-id"))!;
  const undo = page.getByTestId("undo-button");
  const redo = page.getByTestId("redo-button");
  const compactions = item.getByTestId("session-compaction-count");
  const notice = (text: string) => page.getByTestId("notification").filter({ hasText: text }).last();
  await expect(compactions).toHaveText("0");

  // 1. a branch switch to an assistant message a few turns back, without a summary
  const start = await leafNow();
  const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(1).map((l) => JSON.parse(l) as Line & { message?: { role?: string } });
  const target = lines.slice(0, -12).filter((l) => l.type === "message" && l.message?.role === "assistant").at(-1)!.id;
  await goToEntry(page, target);
  await page.keyboard.press("s");
  await page.getByTestId("switch-summarize").uncheck();
  await page.getByTestId("switch-confirm").click();
  await expect(status).not.toHaveAttribute("data-leaf-id", start);
  await expect(undo).toHaveText("↶ Undo branch switch");
  const switched = await leafNow();

  // 2. a compaction there (the offline summarizer)
  await page.getByTestId("tab-compact").click();
  await page.getByTestId("compaction-run").click();
  await expect(undo).toHaveText("↶ Undo compaction", { timeout: 30_000 });
  const compactionId = lastLine(file).id;
  expect(lastLine(file)).toMatchObject({ type: "compaction", parentId: switched });
  await expect(status).toHaveAttribute("data-leaf-id", compactionId);
  // the new leaf brought into view as a node of its own (a zoomed-out tree draws its overview instead)
  await goToEntry(page, compactionId);
  await expect(page.getByTestId(`tree-node-${compactionId}`)).toHaveAttribute("data-leaf", "true");
  await expect(leafNode(page)).toHaveAttribute("data-kind", "compaction");
  await expect(compactions).toHaveText("1");

  // 3. a label on the compaction, which the inspector says Bonsai's offline summarizer wrote
  await leafNode(page).click();
  await expect(page.getByTestId("inspector-origin")).toHaveText("Bonsai's offline summarizer (no model)");
  await page.getByTestId("label-input").fill("after the compaction");
  await page.getByTestId("label-save").click();
  await expect(undo).toHaveText("↶ Undo label");
  expect(lastLine(file)).toMatchObject({ type: "label", targetId: compactionId, label: "after the compaction" });

  // undo the label (button), the compaction (Ctrl+Z), the branch switch (button)
  await undo.click();
  await expect(notice("The label is undone")).toBeVisible();
  const labelUndone = lastLine(file);
  expect(labelUndone).toMatchObject({ type: "label", targetId: compactionId });
  expect(labelUndone.label).toBeUndefined();
  await expect(undo).toHaveText("↶ Undo compaction");
  await expect(redo).toHaveText("↷ Redo label");
  await page.getByTestId("tree-canvas").focus();
  await page.keyboard.press("Control+z");
  await expect(notice("The compaction is undone")).toBeVisible();
  expect(lastLine(file)).toMatchObject({ type: "custom", customType: "bonsai-undo", parentId: switched, data: { undid: "compaction", entryId: compactionId } });
  await expect(compactions).toHaveText("0");
  await expect(undo).toHaveText("↶ Undo branch switch");
  await expect(redo).toHaveText("↷ Redo compaction");
  await undo.click();
  await expect(notice("The branch switch is undone")).toBeVisible();
  expect(lastLine(file)).toMatchObject({ type: "custom", customType: "bonsai-undo", parentId: start, data: { undid: "branch" } });
  await expect(status).toHaveAttribute("data-leaf-id", lastLine(file).id);
  await expect(undo).toHaveCount(0);
  await expect(redo).toHaveText("↷ Redo branch switch");
  await expect(compactions).toHaveText("0");
  await shoot(page, testInfo, "undo-history-all-undone");

  // redo the branch switch (Ctrl+Shift+Z), the compaction (Ctrl+Y), the label (button)
  await page.getByTestId("tree-canvas").focus();
  await page.keyboard.press("Control+Shift+z");
  await expect(notice("The branch switch is redone")).toBeVisible();
  expect(lastLine(file)).toMatchObject({ type: "custom", customType: "bonsai-redo", data: { redid: "branch" } });
  await expect(redo).toHaveText("↷ Redo compaction");
  await page.getByTestId("tree-canvas").focus();
  await page.keyboard.press("Control+y");
  await expect(notice("The compaction is redone")).toBeVisible();
  // back where the compaction's undo left: after the label entry that undid the label on the compaction
  expect(lastLine(file)).toMatchObject({ type: "custom", customType: "bonsai-redo", parentId: labelUndone.id, data: { redid: "compaction", entryId: compactionId } });
  await expect(compactions).toHaveText("1");
  await expect(redo).toHaveText("↷ Redo label");
  await redo.click();
  await expect(notice("The label is redone")).toBeVisible();
  expect(lastLine(file)).toMatchObject({ type: "label", targetId: compactionId, label: "after the compaction" });
  await expect(redo).toHaveCount(0);
  await expect(undo).toHaveText("↶ Undo label");
  await expect(page.getByTestId(`tree-node-${compactionId}`).getByTestId("node-label")).toHaveText("after the compaction");
  await shoot(page, testInfo, "undo-history-all-redone");
});

test("a compaction made before bonsai serve restarted is undone after the restart", async ({ app: page, bonsai, target }, testInfo) => {
  test.skip(target === "electron", "restarts `bonsai serve` (the browser target)");
  test.setTimeout(120_000);
  const { file, item } = await openGenerated(page, bonsai, testInfo, "Undo restart fixture", 160, 93);
  const before = lastLine(file).id;
  const undo = page.getByTestId("undo-button");
  await page.getByTestId("tab-compact").click();
  await page.getByTestId("compaction-run").click();
  await expect(undo).toHaveText("↶ Undo compaction", { timeout: 30_000 });
  const compactionId = lastLine(file).id;
  expect(lastLine(file)).toMatchObject({ type: "compaction", parentId: before });
  await expect(item.getByTestId("session-compaction-count")).toHaveText("1");

  // the user closes Bonsai and starts it again: the compaction is still offered for undo
  await bonsai.restart();
  await page.goto(bonsai.url);
  const again = page.getByTestId("session-item").filter({ hasText: "Undo restart fixture" });
  await again.click();
  await expect(leafNode(page)).toBeVisible();
  await expect(undo).toHaveText("↶ Undo compaction");
  await shoot(page, testInfo, "undo-after-restart");
  await undo.click();
  await expect(page.getByTestId("notification").filter({ hasText: "The compaction is undone" }).last()).toBeVisible();
  // the agent resumes where it was before the compaction; the list counts no compaction
  expect(lastLine(file)).toMatchObject({ type: "custom", customType: "bonsai-undo", parentId: before, data: { undid: "compaction", entryId: compactionId } });
  await expect(page.getByTestId("tree-status")).toHaveAttribute("data-leaf-id", lastLine(file).id);
  await expect(again.getByTestId("session-compaction-count")).toHaveText("0");
  await expect(page.getByTestId("redo-button")).toHaveText("↷ Redo compaction");
});
