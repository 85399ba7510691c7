/**
 * Undo of the last compaction, branch switch or label made in Bonsai: the entry stays in the
 * append-only log, a compaction as an abandoned branch (the leaf moves back), a label followed by a
 * label entry with the old label; the session file ends where Bonsai's leaf is, so the agent
 * resumes there too.
 */
import * as fs from "node:fs";
import { expect, generatedSessionFile, goToEntry, leafNode, screenshot, test, treeNode } from "./explorer-fixtures";

/** pi resumes a file at its last line */
const lastLine = (file: string) => JSON.parse(fs.readFileSync(file, "utf8").trimEnd().split("\n").at(-1)!) as { id: string; type: string; parentId: string; customType?: string };

test("undo a compaction, a branch switch and a label", async ({ app: page, bonsai }, testInfo) => {
  test.setTimeout(90_000);
  // an agent's session file, in an agents' session folder of the host: imported by path, written through
  const file = await generatedSessionFile(testInfo, "Undo fixture", { entries: 220, seed: 91, compactionInterval: 0, branchProbability: 0 }, undefined, bonsai.sessionsDir);
  await bonsai.call("importSessions", { paths: [file] });
  await page.reload();
  await page.getByTestId("session-item").filter({ hasText: "Undo fixture" }).click();
  await expect(leafNode(page)).toBeVisible();
  const leafBefore = (await page.getByTestId("tree-status").getAttribute("data-leaf-id"))!;
  await expect(page.getByTestId("undo-button")).toHaveCount(0);

  // a compaction (the offline summarizer: no model is configured)
  await page.getByTestId("tab-compact").click();
  await expect(page.getByTestId("compaction-plan")).toBeVisible();
  await page.getByTestId("compaction-run").click();
  await expect(leafNode(page)).toHaveAttribute("data-kind", "compaction", { timeout: 30_000 });
  const compactionId = (await page.getByTestId("tree-status").getAttribute("data-leaf-id"))!;
  const undo = page.getByTestId("undo-button");
  await expect(undo).toHaveText("↶ Undo compaction");
  await undo.click();
  await expect(page.getByTestId("notification").filter({ hasText: "The compaction is undone" })).toBeVisible();
  // the compaction is still there, off the active path; the leaf is an undo entry right after the old leaf
  await expect(page.getByTestId("tree-status")).not.toHaveAttribute("data-leaf-id", compactionId);
  const last = lastLine(file);
  expect(last).toMatchObject({ type: "custom", customType: "bonsai-undo", parentId: leafBefore });
  await expect(page.getByTestId("tree-status")).toHaveAttribute("data-leaf-id", last.id);
  await page.getByTestId("zoom-leaf").click();
  await expect(treeNode(page, compactionId)).toHaveAttribute("data-onpath", "false");
  await screenshot(page, testInfo, "undo-compaction-light");
  await expect(undo).toHaveCount(0);

  // a label (a label entry is appended at the leaf, as in pi; the label shows on its target)
  const target = (await page.getByTestId("tree-status").getAttribute("data-leaf-id"))!;
  await leafNode(page).click();
  await page.getByTestId("label-input").fill("before the refactor");
  await page.getByTestId("label-save").click();
  await expect(page.getByTestId(`tree-node-${target}`).getByTestId("node-label")).toHaveText("before the refactor");
  await expect(undo).toHaveText("↶ Undo label");
  const labelEntry = lastLine(file);
  await undo.click();
  await expect(page.getByTestId("notification").filter({ hasText: "The label is undone" })).toBeVisible();
  await goToEntry(page, target);
  await expect(page.getByTestId(`tree-node-${target}`).getByTestId("node-label")).toHaveCount(0);
  // the old label comes back in a label entry right after the undone one: no branch is added
  expect(lastLine(file)).toMatchObject({ type: "label", parentId: labelEntry.id });

  // a branch switch
  const leaf = (await page.getByTestId("tree-status").getAttribute("data-leaf-id"))!;
  await page.keyboard.press("Control+k");
  await page.getByTestId("palette-input").fill("select the leaf");
  await page.keyboard.press("Enter");
  await page.getByTestId("tree-canvas").focus();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("s");
  await page.getByTestId("switch-summarize").uncheck();
  await page.getByTestId("switch-confirm").click();
  await expect(page.getByTestId("tree-status")).not.toHaveAttribute("data-leaf-id", leaf);
  await expect(undo).toHaveText("↶ Undo branch switch");
  await page.keyboard.press("Control+z");
  // the file's last line is undo's marker entry parented at the old leaf (the agent resumes there),
  // and the store's leaf is that same line
  await expect.poll(() => lastLine(file)).toMatchObject({ type: "custom", parentId: leaf });
  await expect(page.getByTestId("tree-status")).toHaveAttribute("data-leaf-id", lastLine(file).id);
});
