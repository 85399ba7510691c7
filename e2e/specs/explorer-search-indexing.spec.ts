/**
 * Search while entries are still being indexed: a large session imported by `bonsai import` (which
 * never indexes for search) while the app is open is indexed by the app when a search needs it, in
 * the background; the search answers at once with the matches so far and says how many entries are
 * still to come, then asks again by itself until the answer is complete.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { bonsaiCli } from "../support/fixtures";
import { BonsaiServer, expect, generatedSessionFile, screenshot, setTheme, shownNumber, test } from "./explorer-fixtures";

/** a word only the session's last user prompt has: the last entries are the last to be indexed */
const WORD = "zanzibarquokka";
/** more than a search indexes itself (SEARCH_INDEX_BUDGET) by far */
const ENTRIES = 30_000;

test.describe.configure({ timeout: 180_000 });

test("a search during indexing shows the matches so far, how many entries are left, and completes by itself", async ({ page }, testInfo) => {
  const dataDir = testInfo.outputPath("data");
  fs.mkdirSync(dataDir, { recursive: true });
  let planted = "";
  const file = await generatedSessionFile(testInfo, "Indexed later", { entries: ENTRIES, seed: 41 }, (s) => {
    const users = s.entries.filter((e) => e.type === "message" && (e as { message: { role: string } }).message.role === "user");
    const last = users[users.length - 1] as { id: string; message: { content: unknown } };
    last.message.content = `Please check the ${WORD} adapter once more`;
    planted = last.id;
  });
  const server = new BonsaiServer(dataDir);
  await server.start();
  try {
    // the page's timers run on a clock this spec moves: the panel asks again (every REFRESH_MS)
    // only when the spec lets its clock run, so the first answer stays shown while it is read,
    // however fast the background indexing is
    await page.clock.install();
    await page.goto(server.url);
    await setTheme(page, "dark");
    // imported in a terminal while the app is open: stored, not indexed
    bonsaiCli(["import", file], { BONSAI_DB: path.join(dataDir, "bonsai.db") });
    await page.getByTestId("open-search").click();
    await page.getByTestId("search-input").fill(WORD);
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.getByTestId("search-input").press("Enter");

    const indexing = page.getByTestId("search-indexing");
    await expect(indexing).toBeVisible();
    await expect(indexing).toContainText("entries to go");
    // the search indexed the first entries itself; the rest is left to the background
    const left = await shownNumber(indexing);
    expect(left).toBeGreaterThan(ENTRIES / 2);
    expect(left).toBeLessThan(ENTRIES);
    await expect(page.getByTestId("search-hit")).toHaveCount(0); // the planted prompt is near the end
    await expect(page.getByTestId("search-empty")).toHaveText(`No matches for “${WORD}” so far.`);
    await screenshot(page, testInfo, "search-indexing-dark");

    // no click: the panel asks again until indexing is done
    await page.clock.resume();
    await expect(indexing).toBeHidden({ timeout: 120_000 });
    const hit = page.getByTestId("search-hit");
    await expect(hit).toHaveCount(1);
    await expect(hit).toHaveAttribute("data-entry-id", planted);
    await expect(hit.locator("mark")).toHaveText(WORD);
    await expect(page.getByTestId("search-empty")).toBeHidden();
    await screenshot(page, testInfo, "search-indexed-dark");
    // and again in the light theme (the panel covers the theme button: closed, then opened again)
    await page.keyboard.press("Escape");
    await setTheme(page, "light");
    await page.getByTestId("open-search").click();
    await page.getByTestId("search-input").fill(WORD);
    await page.getByTestId("search-input").press("Enter");
    await expect(page.getByTestId("search-hit")).toHaveCount(1);
    await screenshot(page, testInfo, "search-indexed-light");
  } finally {
    await server.stop();
  }
});
