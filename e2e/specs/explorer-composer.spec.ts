/**
 * Continue the session from the composer against the loopback model: the reply streams in, and a
 * reply whose usage crosses the threshold triggers an automatic compaction, announced (and, when
 * the summarizer fails, reported once, with the seed's message verbatim) as a notification.
 */
import type { Page } from "@playwright/test";
import type { ChatReply, ChatRequestBody, MockOpenAiServer } from "@bonsai/testkit";
import { expect, generatedSessionFile, importAndOpen, screenshot, setPreference, test, useLoopbackModel } from "./explorer-fixtures";

test.describe.configure({ timeout: 120_000 });

async function smallWindow(page: Page, retry: boolean): Promise<void> {
  await page.getByTestId("open-preferences").click();
  // threshold = 30,000 - 16,384 = 13,616 tokens
  await setPreference(page, "model.contextWindow", "30000");
  if (!retry) {
    await page.getByTestId("pref-retry.enabled").setChecked(false);
    await expect(page.getByTestId("pref-retry.enabled-saved")).toBeVisible();
  }
  await page.getByTestId("preferences-close").click();
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId("composer-input").fill(text);
  await page.getByTestId("composer-input").press("Control+Enter");
}

/** Summarization requests (compaction) vs prompt turns, told apart by the summarizer's system prompt. */
function isSummarization(body: ChatRequestBody): boolean {
  const system = body.messages.find((m) => m.role === "system");
  return typeof system?.content === "string" && system.content.startsWith("You condense conversations");
}

/** The first prompt turn answers with `text` and a usage far over the threshold; later turns with a small usage. */
function scriptModel(model: MockOpenAiServer, text: string[], summary: (n: number) => ChatReply): void {
  let turns = 0;
  model.setChatFallback((body, n) => {
    if (isSummarization(body)) return summary(n);
    turns++;
    return turns === 1
      ? { kind: "text", text, usage: { prompt_tokens: 25_000, completion_tokens: 40 } }
      : { kind: "text", text: "Nothing else to do.", usage: { prompt_tokens: 900, completion_tokens: 10 } };
  });
}

test("a streamed reply over the threshold compacts automatically", async ({ app: page, model }, testInfo) => {
  await useLoopbackModel(page, model);
  await smallWindow(page, true);
  const file = await generatedSessionFile(testInfo, "Composer fixture", { entries: 40, seed: 51, compactionInterval: 0, branchProbability: 0 });
  await importAndOpen(page, file, "Composer fixture");
  const status = page.getByTestId("tree-status");
  await expect(status).toHaveAttribute("data-entry-count", "40");

  scriptModel(model, ["The parser ", "is fixed ", "now."], (n) => ({ kind: "text", text: `## Goal\nParser work ${n}\n\n## Next Steps\n1. Ship it` }));
  try {
    await send(page, "Where are we with the parser?");
    await expect(page.getByTestId("composer-stream")).toContainText("The parser is fixed now.", { timeout: 60_000 });
    await expect(page.getByText("Context compacted automatically").first()).toBeVisible({ timeout: 60_000 });
    // the user message, the reply and the compaction were appended; the context starts at the summary
    await expect.poll(async () => Number(await status.getAttribute("data-entry-count")), { timeout: 30_000 }).toBeGreaterThanOrEqual(43);
    await page.getByTestId("tab-context").click();
    await expect(page.getByTestId("context-message").first()).toHaveAttribute("data-source-role", "compactionSummary");
    await screenshot(page, testInfo, "auto-compacted");
  } finally {
    model.setChatFallback(undefined);
  }
});

test("a failing automatic compaction is reported with the seed's message", async ({ app: page, model }, testInfo) => {
  await useLoopbackModel(page, model);
  await smallWindow(page, false);
  // the recorded replies' usage stays far under the threshold, so the reply below triggers the only automatic compaction
  const file = await generatedSessionFile(testInfo, "Composer failure fixture", { entries: 40, seed: 52, compactionInterval: 0, branchProbability: 0 }, (session) => {
    for (const e of session.entries) {
      if (e.type === "message" && e.message.role === "assistant") e.message.usage = { input: 900, output: 40, cacheRead: 0, cacheWrite: 0, totalTokens: 940 };
    }
  });
  await importAndOpen(page, file, "Composer failure fixture");

  scriptModel(model, ["Done."], () => ({ kind: "error", status: 400, message: "summarizer refused the request" }));
  try {
    await send(page, "Finish the release notes");
    // exactly one notification, whose text is the engine's message itself (triggers-and-hooks.md §2 step 12)
    await expect(page.locator(".notification").filter({ hasText: "compacting…" })).toHaveCount(1, { timeout: 60_000 });
    const failed = page.locator(".notification").filter({ hasText: "Auto-compaction failed" });
    await expect(failed).toHaveCount(1, { timeout: 60_000 });
    await expect(failed.locator("span")).toHaveText("Auto-compaction failed: Summarization failed: 400 summarizer refused the request");
    await expect(page.getByTestId("composer-stream")).toContainText("Done.", { timeout: 60_000 });
    // nothing arrives late (a second listener would add its copy with the same event)
    await page.waitForTimeout(500);
    await expect(failed).toHaveCount(1);
    await screenshot(page, testInfo, "auto-compaction-failed");
  } finally {
    model.setChatFallback(undefined);
  }
});
