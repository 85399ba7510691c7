/**
 * Agent events in the transcript (issue 32, point 8): the lines Claude Code and Codex write beside
 * the conversation (hook and progress lines, attachments, system lines, Codex event_msg, ...) are
 * folded into one row per run — "7 agent events" with their kinds — that opens with the mouse or
 * the keyboard to show each of them as before. Real files of ../shared/fixtures/real, read in place.
 * Screenshots at 1024 and 1400 px wide, light and dark.
 */
import type { Page } from "@playwright/test";
import { sharedFixture } from "../support/paths";
import { expect, screenshot, setTheme, test } from "./explorer-fixtures";

const CLAUDE = sharedFixture("real/claude-code/ta93abe__me__05_082272ed34_0_full.jsonl");
const CODEX = sharedFixture("real/codex/entireio__external-agents__2f_9ea0aa2380_0_full.jsonl");

async function openTranscript(page: Page, file: string): Promise<void> {
  await page.getByTestId("import-input").setInputFiles(file);
  await expect(page.getByTestId("import-result")).toContainText("Imported 1 of 1 file");
  await page.getByTestId("session-item").first().click();
  await expect(page.getByTestId("tree-status")).toHaveAttribute("data-leaf-id", /.+/u);
  await page.getByTestId("view-transcript").click();
  await expect(page.getByTestId("transcript-message").first()).toBeVisible({ timeout: 30_000 });
}

/** The transcript's rows in order: "E<count><open?>" for a run, the entry type otherwise. */
function rowSequence(page: Page): Promise<string[]> {
  return page
    .locator(".bz-transcript-list > li")
    .evaluateAll((lis) => lis.map((li) => (li.getAttribute("data-testid") === "transcript-events" ? `E${li.getAttribute("data-count")}${li.getAttribute("data-open") === "true" ? "+" : ""}` : (li.getAttribute("data-entry-type") ?? "fold"))));
}

test.describe("agent events in the transcript", () => {
  test.skip(!CLAUDE || !CODEX, "the real Claude Code / Codex files of ../shared/fixtures/real are not present next to the checkout");
  test.skip(({ target }) => target === "electron", "imports through the browser's file input");

  test("a Claude Code session: each run of events is one closed row; it opens and closes from the keyboard", async ({ app: page }, testInfo) => {
    test.setTimeout(240_000);
    await openTranscript(page, CLAUDE!);
    const runs = page.getByTestId("transcript-events");
    await expect(runs.first()).toBeVisible();
    const rows = await rowSequence(page);
    // closed runs only, never two runs in a row, no event shown on its own
    expect(rows.filter((r) => r.startsWith("E")).length).toBeGreaterThan(3);
    expect(rows.some((r) => r.endsWith("+"))).toBe(false);
    expect(rows).not.toContain("agent_event");
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.startsWith("E") && rows[i]!.startsWith("E"), `rows ${i - 1} and ${i}`).toBe(false);
    const counts = rows.filter((r) => r.startsWith("E")).map((r) => Number(r.slice(1)));
    expect(Math.max(...counts)).toBeGreaterThan(1);

    // the largest run, opened from the keyboard: its row stays, each event follows it as before
    const largest = page.locator(`[data-testid="transcript-events"][data-count="${Math.max(...counts)}"]`).first();
    const toggle = largest.getByTestId("transcript-events-toggle");
    await expect(toggle).toHaveText(`▸${Math.max(...counts)} agent events`);
    await expect(largest).toContainText(/attachment|system\/|progress|mode|last-prompt/u);
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const opened = await rowSequence(page);
    const at = opened.findIndex((r) => r.endsWith("+"));
    expect(opened.slice(at + 1, at + 1 + Math.max(...counts))).toEqual(Array.from({ length: Math.max(...counts) }, () => "agent_event"));
    const firstEvent = page.locator('[data-testid="transcript-message"][data-entry-type="agent_event"]').first();
    await expect(firstEvent.locator(".bz-tr-who")).toHaveText(/^Event · /u);
    for (const width of [1024, 1400]) {
      await page.setViewportSize({ width, height: 860 });
      await largest.scrollIntoViewIfNeeded();
      for (const theme of ["light", "dark"] as const) {
        await setTheme(page, theme);
        await screenshot(page, testInfo, `agent-events-claude-${width}-${theme}`);
      }
    }
    await toggle.focus();
    await page.keyboard.press("Space");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(await rowSequence(page)).not.toContain("agent_event");
  });

  test("a Codex session: its event_msg lines are folded the same way", async ({ app: page }, testInfo) => {
    test.setTimeout(240_000);
    await openTranscript(page, CODEX!);
    const runs = page.getByTestId("transcript-events");
    await expect(runs.first()).toBeVisible();
    await expect(runs.first()).toContainText("event_msg/");
    const rows = await rowSequence(page);
    expect(rows).not.toContain("agent_event");
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.startsWith("E") && rows[i]!.startsWith("E"), `rows ${i - 1} and ${i}`).toBe(false);
    for (const width of [1024, 1400]) {
      await page.setViewportSize({ width, height: 860 });
      for (const theme of ["light", "dark"] as const) {
        await setTheme(page, theme);
        await screenshot(page, testInfo, `agent-events-codex-${width}-${theme}`);
      }
    }
  });
});
