/**
 * Compact by click against the loopback model server: with instructions (the new compaction
 * node and the new context), abort while it runs, and a dry run whose summary is edited before
 * it is appended.
 */
import { expect, generatedSessionFile, importAndOpen, leafNode, screenshot, test, useLoopbackModel } from "./explorer-fixtures";

const session = (seed: number) => ({ entries: 260, seed, compactionInterval: 0, branchProbability: 0 });

test("compact with instructions: new node at the leaf and the new context", async ({ app: page, model }, testInfo) => {
  await useLoopbackModel(page, model);
  // the preferences' Test connection reaches the loopback model
  await page.getByTestId("open-preferences").click();
  await page.getByTestId("pref-test-connection").click();
  await expect(page.getByTestId("pref-apiKey-message")).toContainText("Connected to mock-model");
  await page.getByTestId("preferences-close").click();
  const file = await generatedSessionFile(testInfo, "Compact fixture", session(21));
  // the context preview is computed for the panels that show it, not for every open
  const previewCalls: number[] = [];
  page.on("websocket", (ws) => ws.on("framesent", (f) => void (String(f.payload).includes('"method":"getContextPreview"') && previewCalls.push(Date.now()))));
  await page.reload(); // a new connection, which the listener sees
  await importAndOpen(page, file, "Compact fixture");
  const status = page.getByTestId("tree-status");
  await expect(status).toHaveAttribute("data-entry-count", "260");
  expect(previewCalls).toHaveLength(0);

  await page.getByTestId("tab-context").click();
  await expect.poll(() => previewCalls.length).toBe(1);
  const countBefore = Number(await page.getByTestId("context-count").textContent());
  expect(countBefore).toBeGreaterThan(20);

  // the Compact button of the current leaf opens the panel with the plan
  await leafNode(page).click();
  await page.getByTestId("inspector-compact").click();
  await expect(page.getByTestId("side-panel")).toHaveAttribute("data-panel", "compact");
  await expect(page.getByTestId("compaction-plan")).toBeVisible();
  await expect(page.getByTestId("plan-summarized")).not.toHaveText(/^0 entries/u);
  const requestsBefore = model.chatRequests().length;
  await page.getByTestId("compaction-instructions").fill("Focus on the parser module and its open bugs");
  await page.getByTestId("compaction-run").click();

  await expect(status).toHaveAttribute("data-entry-count", "261", { timeout: 30_000 });
  await expect(leafNode(page)).toHaveAttribute("data-kind", "compaction");
  // the compaction node says what it recorded before and what the model sees from it
  await expect(leafNode(page).getByTestId("compaction-tokens-before")).toContainText(/→ [\d.]+K? tok/u);
  // the instructions reached the model
  const sent = model.chatRequests().slice(requestsBefore).map((r) => JSON.stringify(r.messages));
  expect(sent.some((m) => m.includes("Focus on the parser module and its open bugs"))).toBe(true);
  // the context now starts with the summary and holds fewer messages
  await expect(page.getByTestId("side-panel")).toHaveAttribute("data-panel", "context");
  const first = page.getByTestId("context-message").first();
  await expect(first).toHaveAttribute("data-source-role", "compactionSummary");
  await expect(page.getByTestId("context-count")).not.toHaveText(String(countBefore));
  expect(Number(await page.getByTestId("context-count").textContent())).toBeLessThan(countBefore);
  await expect(page.getByTestId("chart-compaction").first()).toBeVisible();
  await screenshot(page, testInfo, "compacted");

  // nothing left to compact at a compaction leaf
  await page.getByTestId("tab-compact").click();
  await expect(page.getByTestId("plan-impossible")).toBeVisible();
});

test("abort a running compaction: nothing is appended", async ({ app: page, model }, testInfo) => {
  await useLoopbackModel(page, model);
  const file = await generatedSessionFile(testInfo, "Abort fixture", session(23));
  await importAndOpen(page, file, "Abort fixture");
  model.enqueue({ kind: "hang" });
  await page.getByTestId("tab-compact").click();
  await expect(page.getByTestId("compaction-plan")).toBeVisible();
  const pending = model.chatRequests().length;
  await page.getByTestId("compaction-run").click();
  await expect(page.getByTestId("compaction-progress")).toBeVisible();
  await model.waitForRequests(pending + 1);
  await screenshot(page, testInfo, "compaction-running");
  await page.getByTestId("compaction-abort").click();
  await expect(page.getByTestId("compaction-progress")).toBeHidden({ timeout: 15_000 });
  await expect(page.getByText("Compaction cancelled")).toBeVisible();
  await expect(page.getByTestId("tree-status")).toHaveAttribute("data-entry-count", "260");
  await expect(leafNode(page)).not.toHaveAttribute("data-kind", "compaction");
});

test("dry run: read, edit and append the summary", async ({ app: page, model }, testInfo) => {
  await useLoopbackModel(page, model);
  const file = await generatedSessionFile(testInfo, "Dry-run fixture", session(22));
  await importAndOpen(page, file, "Dry-run fixture");
  const status = page.getByTestId("tree-status");

  await page.getByTestId("tab-compact").click();
  await expect(page.getByTestId("compaction-plan")).toBeVisible();
  await page.getByTestId("compaction-dry-run").click();
  const summary = page.getByTestId("dry-run-summary");
  await expect(summary).toBeVisible({ timeout: 30_000 });
  await expect(summary).toHaveValue(/Mock summary/u);
  // the dry run appended nothing; the diff shows what leaves the context
  await expect(status).toHaveAttribute("data-entry-count", "260");
  await expect(page.getByTestId("dry-run-diff").locator(".bz-diff-del").first()).toBeVisible();
  await screenshot(page, testInfo, "dry-run");

  await summary.fill("## Goal\nEdited by hand: keep the parser decisions.\n\n## Next Steps\n1. Fix the tokenizer");
  await page.getByTestId("dry-run-short-summary").fill("Parser work, edited");
  await page.getByTestId("dry-run-commit").click();
  await expect(status).toHaveAttribute("data-entry-count", "261", { timeout: 30_000 });
  const leaf = leafNode(page);
  await expect(leaf).toHaveAttribute("data-kind", "compaction");
  await leaf.click();
  await expect(page.getByTestId("inspector-summary")).toContainText("Edited by hand: keep the parser decisions.");
  await expect(page.getByTestId("inspector-short-summary")).toHaveText("Parser work, edited");
  await screenshot(page, testInfo, "dry-run-committed");
});
