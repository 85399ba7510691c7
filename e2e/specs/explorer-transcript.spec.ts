/**
 * The reading view: the active path as a conversation (markdown rendered, tool calls and results
 * folded, what the latest compaction summarized folded away, compactions and branch summaries as
 * dividers that say what they replaced); selecting a message selects its node and back; a node off
 * the active path shows its own path; search hits open here.
 */
import { expect, generatedSessionFile, importAndOpen, screenshot, test } from "./explorer-fixtures";

test("read the active path as a conversation, in step with the tree", async ({ app: page }, testInfo) => {
  const file = await generatedSessionFile(testInfo, "Transcript fixture", { entries: 240, seed: 12, compactionInterval: 90, branchProbability: 0.12 }, (s) => {
    // a reply with markdown, to see it rendered
    const reply = [...s.entries].reverse().find((e) => e.type === "message" && e.message.role === "assistant" && e.message.content.some((b) => b.type === "text"));
    if (reply?.type === "message" && reply.message.role === "assistant") {
      reply.message.content = [{ type: "text", text: "## Plan\n\n- **first** step\n- second step with `code`" }, ...reply.message.content.filter((b) => b.type === "toolCall")];
    }
  });
  await importAndOpen(page, file, "Transcript fixture");
  await page.getByTestId("view-transcript").click();
  const transcript = page.getByTestId("transcript");
  await expect(transcript).toBeVisible();
  await expect(page.getByTestId("transcript-scope")).toContainText("The active path");

  // what the latest compaction summarized is folded away, and its divider says what it replaced
  await expect(page.getByTestId("transcript-fold")).toContainText("summarized by the compaction below and are not sent");
  await expect(page.getByTestId("transcript-compaction").last()).toContainText(/[\d,]+ earlier entries \([\d,]+ tokens before\) replaced by a summary/u);
  // markdown is rendered; tool calls and results are folded
  await expect(transcript.locator("h4", { hasText: "Plan" }).first()).toBeVisible();
  await expect(transcript.locator("strong", { hasText: "first" }).first()).toBeVisible();
  const toolResult = page.locator('[data-testid="transcript-message"][data-kind="toolResult"] details').first();
  await expect(toolResult).not.toHaveAttribute("open", "");
  await toolResult.locator("summary").click();
  await expect(toolResult).toHaveAttribute("open", "");
  await screenshot(page, testInfo, "transcript-light");
  await page.getByTestId("transcript-unfold").click();
  await expect(page.getByTestId("transcript-fold")).toHaveCount(0);
  await expect(page.locator(".bz-tr-summarized").first()).toBeVisible();

  // selecting a message selects its node
  const user = page.locator('[data-testid="transcript-message"][data-kind="user"]').last();
  const userId = (await user.getAttribute("data-entry-id"))!;
  await user.locator(".bz-tr-who").click();
  await expect(user).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-entry-id", userId);
  await page.getByTestId("view-tree").click();
  await expect(page.getByTestId(`tree-node-${userId}`)).toHaveAttribute("data-selected", "true");

  // and back: a node selected in the tree is the one marked in the transcript
  await page.getByTestId("tree-canvas").focus();
  await page.keyboard.press("ArrowUp");
  const selected = page.locator('[data-selected="true"]');
  await expect(selected).toHaveCount(1);
  const selectedTestId = (await selected.getAttribute("data-testid"))!;
  if (selectedTestId.startsWith("tree-node-")) {
    const id = selectedTestId.slice("tree-node-".length);
    await page.getByTestId("view-transcript").click();
    await expect(page.locator(`[data-testid="transcript-message"][data-entry-id="${id}"]`)).toHaveAttribute("aria-current", "true");
  }

  // a node off the active path: the transcript reads the path to it, and goes back to the active one
  await page.getByTestId("view-tree").click();
  const off = page.locator('[data-onpath="false"][data-kind="user"], [data-onpath="false"][data-kind="assistant"]').first();
  if ((await off.count()) > 0) {
    await off.click();
    await page.getByTestId("view-transcript").click();
    await expect(page.getByTestId("transcript-scope")).toContainText("not the active path");
    await page.getByTestId("transcript-to-leaf").click();
    await expect(page.getByTestId("transcript-scope")).toContainText("The active path");
  }
});

test("a search hit opens in the transcript at its message", async ({ app: page }, testInfo) => {
  const file = await generatedSessionFile(testInfo, "Transcript search", { entries: 120, seed: 14, compactionInterval: 0, branchProbability: 0 }, (s) => {
    const user = s.entries.find((e) => e.type === "message" && e.message.role === "user");
    if (user?.type === "message" && user.message.role === "user") user.message.content = "Please look at the zanzibar migration first";
  });
  await importAndOpen(page, file, "Transcript search");
  await page.keyboard.press("/");
  await page.getByTestId("search-input").fill("zanzibar");
  await page.getByTestId("search-submit").click();
  await page.getByTestId("search-hit").first().click();
  await expect(page.getByTestId("transcript")).toBeVisible();
  const hit = page.locator('[data-testid="transcript-message"][aria-current="true"]');
  await expect(hit).toContainText("zanzibar migration");
  await expect(hit).toBeInViewport();
});
