/**
 * Switch branch by click: without a summary, with a summary of the abandoned branch (loopback
 * model, custom instructions), and cancelled (Escape / Cancel, and Escape while summarizing).
 */
import type { Page } from "@playwright/test";
import { generateSession, type GenerateSessionOptions } from "@bonsai/testkit";
import { expect, generatedSessionFile, goToEntry, importAndOpen, leafNode, screenshot, test, useLoopbackModel } from "./explorer-fixtures";

/**
 * An assistant entry on another branch than the current leaf (neither on its path nor below it), shown
 * in the tree. `leaf`: the entry the leaf stands at when the leaf is a branch switch's marker entry
 * (which the generated session does not hold).
 */
async function pickOffPath(page: Page, options: GenerateSessionOptions, skip: readonly string[] = [], leaf?: string): Promise<string> {
  const { entries } = generateSession(options);
  const leafId = leaf ?? (await page.getByTestId("tree-status").getAttribute("data-leaf-id"))!;
  const byId = new Map(entries.map((e) => [e.id, e]));
  const onPath = new Set<string>();
  for (let e = byId.get(leafId); e; e = e.parentId ? byId.get(e.parentId) : undefined) onPath.add(e.id);
  const below = (id: string): boolean => {
    for (let e = byId.get(id); e; e = e.parentId ? byId.get(e.parentId) : undefined) if (e.id === leafId) return true;
    return false;
  };
  const pick = entries.find((e) => e.type === "message" && e.message.role === "assistant" && !onPath.has(e.id) && !below(e.id) && !skip.includes(e.id));
  if (!pick) throw new Error("no off-path assistant entry left");
  await goToEntry(page, pick.id);
  return pick.id;
}

async function openSwitchDialog(page: Page, entryId: string): Promise<void> {
  await page.getByTestId(`tree-node-${entryId}`).click();
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-entry-id", entryId);
  await page.getByTestId("inspector-switch").click();
  await expect(page.getByTestId("switch-dialog")).toBeVisible();
}

// several flows (or two server starts) in one test: allow for a loaded CI machine
test.describe.configure({ timeout: 120_000 });

test("switch branch without and with a summary, and cancel", async ({ app: page, model }, testInfo) => {
  await useLoopbackModel(page, model);
  const options = { entries: 300, seed: 3, compactionInterval: 120, branchProbability: 0.08 };
  const file = await generatedSessionFile(testInfo, "Branch fixture", options);
  await importAndOpen(page, file, "Branch fixture");
  const status = page.getByTestId("tree-status");
  await expect(status).toHaveAttribute("data-entry-count", "300");

  // without a summary (the default, branchSummary.enabled is off): the leaf moves to a marker entry
  // parented at the target (a pi custom entry the agent leaves out of its context), so the agent
  // resumes there too
  const first = await pickOffPath(page, options);
  await openSwitchDialog(page, first);
  await expect(page.getByTestId("switch-summarize")).not.toBeChecked();
  await screenshot(page, testInfo, "switch-dialog");
  await page.getByTestId("switch-confirm").click();
  await expect(page.getByTestId("switch-dialog")).toBeHidden();
  await expect(status).toHaveAttribute("data-entry-count", "301");
  await expect(page.getByTestId(`tree-node-${first}`)).toHaveAttribute("data-onpath", "true");
  const switched = (await status.getAttribute("data-leaf-id"))!;
  expect(switched).not.toBe(first);

  // cancel with Escape, and with the Cancel button: the leaf stays
  const second = await pickOffPath(page, options, [first], first);
  await openSwitchDialog(page, second);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("switch-dialog")).toBeHidden();
  await openSwitchDialog(page, second);
  await page.getByTestId("switch-cancel").click();
  await expect(page.getByTestId("switch-dialog")).toBeHidden();
  await expect(status).toHaveAttribute("data-leaf-id", switched);

  // Escape while the summary is being generated aborts it: nothing changes
  model.enqueue({ kind: "hang" });
  await openSwitchDialog(page, second);
  await page.getByTestId("switch-summarize").check();
  const pending = model.chatRequests().length;
  await page.getByTestId("switch-confirm").click();
  await expect(page.getByTestId("switch-progress")).toBeVisible();
  await model.waitForRequests(pending + 1);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("switch-dialog")).toBeHidden();
  await expect(page.getByText("Branch summarization cancelled")).toBeVisible();
  await expect(status).toHaveAttribute("data-leaf-id", switched);
  await expect(status).toHaveAttribute("data-entry-count", "301");

  // with a summary and instructions: a branch_summary entry becomes the new leaf, under the target
  const requestsBefore = model.chatRequests().length;
  await openSwitchDialog(page, second);
  await page.getByTestId("switch-summarize").check();
  await page.getByTestId("switch-instructions").fill("Mention which tests the abandoned branch broke");
  await page.getByTestId("switch-confirm").click();
  await expect(page.getByTestId("switch-dialog")).toBeHidden({ timeout: 30_000 });
  await expect(status).toHaveAttribute("data-entry-count", "302");
  const leaf = leafNode(page);
  await expect(leaf).toHaveAttribute("data-kind", "branchSummary");
  await expect(leaf).toContainText(`from ${second}`);
  await expect(page.getByTestId(`tree-node-${second}`)).toHaveAttribute("data-onpath", "true");
  const sent = model.chatRequests().slice(requestsBefore).map((r) => JSON.stringify(r.messages));
  expect(sent.some((m) => m.includes("Mention which tests the abandoned branch broke"))).toBe(true);
  await screenshot(page, testInfo, "switched-with-summary");
});

test("switching to a user message re-opens its prompt in the composer", async ({ app: page }, testInfo) => {
  const options = { entries: 300, seed: 3, compactionInterval: 120, branchProbability: 0.08 };
  const file = await generatedSessionFile(testInfo, "Re-edit fixture", options);
  await importAndOpen(page, file, "Re-edit fixture");
  // a user message off the active path (the palette goes to it by its id)
  const { entries } = generateSession(options);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const onPath = new Set<string>();
  for (let e = entries.at(-1); e; e = e.parentId ? byId.get(e.parentId) : undefined) onPath.add(e.id);
  const id = entries.find((e) => e.type === "message" && e.message.role === "user" && !onPath.has(e.id))!.id;
  await goToEntry(page, id);
  const entry = generateSession(options).entries.find((e) => e.id === id) as { parentId: string; message: { content: string | Array<{ type: string; text?: string }> } };
  const content = entry.message.content;
  const prompt = typeof content === "string" ? content : content.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("");

  await openSwitchDialog(page, id);
  await page.getByTestId("switch-confirm").click();
  await expect(page.getByTestId("switch-dialog")).toBeHidden();
  // the leaf goes to the message's parent (through the switch's marker entry, parented there) and
  // the prompt waits in the composer to be sent again
  await expect(page.getByTestId("tree-status")).toHaveAttribute("data-entry-count", "301");
  await expect(page.getByTestId("tree-status")).not.toHaveAttribute("data-leaf-id", entry.parentId);
  await expect(page.getByTestId("composer-input")).toHaveValue(prompt);
  await screenshot(page, testInfo, "re-edit");
});
