/**
 * The what-if section of the Preferences pane: as values are typed, the open session (or chosen
 * recent sessions) is replayed in the backend and the chart shows the file's run beside the
 * candidate's, with compaction markers and totals; Save applies the candidate to the settings.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, generatedSessionFile, importAndOpen, screenshot, test } from "./explorer-fixtures";

// a session that outgrows the window several times (usage grows with the context; no compaction in the file)
const GROWING = { entries: 1500, seed: 31, compactionInterval: 0, branchProbability: 0 };

const number = async (l: Locator) => Number(((await l.textContent()) ?? "").replace(/[^\d]/gu, ""));

async function openWhatIf(page: Page): Promise<Locator> {
  await page.getByTestId("open-preferences").click();
  const whatif = page.getByTestId("whatif");
  await expect(whatif.getByTestId("whatif-chart")).toHaveCount(1, { timeout: 30_000 });
  return whatif;
}

test.describe.configure({ timeout: 120_000 });

test("the candidate chart follows the typed values, and Save applies them", async ({ app: page }, testInfo) => {
  const file = await generatedSessionFile(testInfo, "Whatif growing", GROWING);
  await importAndOpen(page, file, "Whatif growing");
  const whatif = await openWhatIf(page);
  const total = whatif.getByTestId("whatif-total-compactions");
  const markers = whatif.getByTestId("whatif-candidate-compaction");

  // replayed on its own model's window first: the file's usage went past 200K, which proves the 1M window
  // of its model (claude-sonnet-4-5), and the caption says so
  await expect(whatif.getByTestId("whatif-window")).toHaveAttribute("data-context-window", "1000000");
  // every session on the typed window (200,000): the file outgrows it several times
  await page.getByTestId("whatif-fixedWindow").check();
  await expect(whatif.getByTestId("whatif-window")).toHaveAttribute("data-context-window", "200000");

  // the saved settings first: the file never compacted, the replay does
  await expect(whatif.getByTestId("whatif-actual-compaction")).toHaveCount(0);
  await expect.poll(() => number(total)).toBeGreaterThan(0);
  const atDefaults = await number(total);
  await expect(markers).toHaveCount(atDefaults);
  await screenshot(page, testInfo, "whatif-defaults-light");

  // a larger reserve compacts earlier and more often: the chart follows while typing (no blur, no Enter)
  await page.getByTestId("whatif-reserveTokens").fill("100000");
  await expect.poll(() => number(total)).toBeGreaterThan(atDefaults);
  await expect(markers).toHaveCount(await number(total));
  const updated = await whatif.getByTestId("whatif-result").getAttribute("data-update-ms");
  testInfo.annotations.push({ type: "what-if update (ms, this machine)", description: String(updated) });

  // the percent form of the threshold
  await page.getByTestId("whatif-threshold-percent").check();
  await page.getByTestId("whatif-thresholdPercent").fill("50");
  await expect(whatif.getByText("threshold 100,000")).toBeVisible();

  // an invalid value is refused inline; the chart keeps the last valid replay
  await page.getByTestId("whatif-keepRecentTokens").fill("lots");
  await expect(page.getByTestId("whatif-keepRecentTokens-error")).toHaveText("must be a whole number");
  await expect(page.getByTestId("whatif-save")).toBeDisabled();
  await page.getByTestId("whatif-keepRecentTokens").fill("20000");
  await expect(page.getByTestId("whatif-keepRecentTokens-error")).toBeHidden();

  // compaction off: nothing compacts, and the candidate is the file
  await page.getByTestId("whatif-compactionEnabled").uncheck();
  await expect(total).toHaveText("0");
  await expect(markers).toHaveCount(0);
  await expect
    .poll(async () => (await whatif.getByTestId("whatif-candidate-line").getAttribute("points")) === (await whatif.getByTestId("whatif-actual-line").getAttribute("points")))
    .toBe(true);

  // Save applies the candidate: the settings rows below show it, and it survives a reload
  await page.getByTestId("whatif-compactionEnabled").check();
  await page.getByTestId("whatif-threshold-reserve").check();
  await page.getByTestId("whatif-reserveTokens").fill("50000");
  await expect(page.getByText("threshold 150,000")).toBeVisible();
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, testInfo, "whatif-candidate-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await screenshot(page, testInfo, "whatif-candidate-light");
  await page.getByTestId("whatif-save").click();
  await expect(page.getByTestId("whatif-save-message")).toContainText("Saved");
  await expect(page.getByTestId("pref-compaction.reserveTokens")).toHaveValue("50000");
  await expect(page.getByTestId("whatif-save")).toBeDisabled();
  await page.reload();
  await page.getByTestId("open-preferences").click();
  await expect(page.getByTestId("pref-compaction.reserveTokens")).toHaveValue("50000");
  await expect(page.getByTestId("whatif-reserveTokens")).toHaveValue("50000");
});

test("recent sessions: one chart per chosen session, totals over all of them", async ({ app: page }, testInfo) => {
  const a = await generatedSessionFile(testInfo, "Whatif first", GROWING);
  const b = await generatedSessionFile(testInfo, "Whatif second", { ...GROWING, entries: 700, seed: 32 });
  await page.getByTestId("import-input").setInputFiles([a, b]);
  await expect(page.getByTestId("session-item")).toHaveCount(2, { timeout: 30_000 });
  // nothing open: the recent sessions are the scope, the newest chosen
  await page.getByTestId("open-preferences").click();
  const whatif = page.getByTestId("whatif");
  await expect(page.getByTestId("whatif-scope-open")).toBeDisabled();
  await expect(whatif.getByTestId("whatif-chart")).toHaveCount(1, { timeout: 30_000 });
  const boxes = whatif.locator('[data-testid^="whatif-session-"]');
  await expect(boxes).toHaveCount(2);
  for (const box of await boxes.all()) await box.check();
  await expect(whatif.getByTestId("whatif-chart")).toHaveCount(2);
  const perSession = await whatif.getByTestId("whatif-candidate-compaction").count();
  await expect.poll(() => number(whatif.getByTestId("whatif-total-compactions"))).toBe(perSession);
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, testInfo, "whatif-two-sessions-dark");
});
