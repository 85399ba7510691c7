/**
 * Notifications: one stack docked under the session list (it never covers a control), info goes
 * by itself after 5 s (counted on a clock the spec moves), errors stay until dismissed, the same
 * message is counted instead of stacked, a session's messages go when another session is opened,
 * and an error is one sentence with its cause first and no repeated prefixes.
 */
import { expect, generatedSessionFile, importAndOpen, screenshot, test, useLoopbackModel } from "./explorer-fixtures";

const session = (seed: number) => ({ entries: 200, seed, compactionInterval: 0, branchProbability: 0 });

test("an error is one sentence, stays, is counted, belongs to its session, and never covers a control", async ({ app: page, model }, testInfo) => {
  test.setTimeout(90_000);
  await useLoopbackModel(page, model);
  await page.getByTestId("open-preferences").click();
  await page.getByTestId("pref-retry.enabled").uncheck();
  await expect(page.getByTestId("pref-retry.enabled-saved")).toBeVisible();
  await page.getByTestId("preferences-close").click();
  const first = await generatedSessionFile(testInfo, "Notify one", session(31));
  const second = await generatedSessionFile(testInfo, "Notify two", session(32));
  await page.getByTestId("import-input").setInputFiles(second);
  await expect(page.getByTestId("session-item").filter({ hasText: "Notify two" })).toBeVisible();
  await importAndOpen(page, first, "Notify one");
  const notes = page.getByTestId("notification");

  for (let i = 0; i < 4; i++) model.enqueue({ kind: "error", status: 500, message: "boom" });
  await page.getByTestId("tab-compact").click();
  await expect(page.getByTestId("compaction-plan")).toBeVisible();
  await page.getByTestId("compaction-dry-run").click();
  const error = notes.filter({ hasText: "boom" });
  await expect(error).toHaveCount(1);
  await expect(error).toHaveAttribute("data-level", "error");
  // the cause first, said once: no "Compaction failed: compact failed: Summarization failed: …"
  await expect(error.locator(".notification__text")).toHaveText("Summarization failed: 500 boom, so no dry run was made.");
  // the same failure again is counted, not stacked
  await expect(page.getByTestId("compaction-dry-run")).toBeEnabled();
  await page.getByTestId("compaction-dry-run").click();
  await expect(error).toContainText("×2");
  await expect(notes.filter({ hasText: "boom" })).toHaveCount(1);

  // it sits under the session list: no control of the session view is covered, and they all take clicks
  const stack = (await page.getByTestId("notifications").boundingBox())!;
  for (const id of ["composer-input", "zoom-fit", "tab-prune", "compaction-run", "session-filter"]) {
    const box = (await page.getByTestId(id).boundingBox())!;
    const overlap = !(box.x >= stack.x + stack.width || box.x + box.width <= stack.x || box.y >= stack.y + stack.height || box.y + box.height <= stack.y);
    expect(overlap, `${id} is under the notifications`).toBe(false);
  }
  await page.getByTestId("composer-input").fill("hello");
  await page.getByTestId("composer-send").click({ trial: true });
  await screenshot(page, testInfo, "notifications-error-light");

  // errors stay (an info message would be gone by now)
  await page.waitForTimeout(6_000);
  await expect(error).toBeVisible();

  // another session: the first one's messages go, and do not come back
  await page.getByTestId("session-item").filter({ hasText: "Notify two" }).click();
  await expect(page.getByTestId("session-view")).toHaveAttribute("data-session-id", /.+/u);
  await expect(notes.filter({ hasText: "boom" })).toHaveCount(0);
  await page.getByTestId("session-item").filter({ hasText: "Notify one" }).click();
  await expect(page.getByTestId("explorer")).toBeVisible();
  await expect(notes.filter({ hasText: "boom" })).toHaveCount(0);
});

test("info goes by itself after 5 seconds; an error stays until dismissed", async ({ app: page }, testInfo) => {
  // the page's timers run on a clock this test moves: a notification's lifetime is counted in the
  // page's time, exactly, however long the machine takes for the steps in between
  await page.clock.install();
  await page.reload();
  await expect(page.getByTestId("import-button")).toBeVisible();
  const file = await generatedSessionFile(testInfo, "Lifetime", session(33));
  await importAndOpen(page, file, "Lifetime");
  const notes = page.getByTestId("notification");

  // info: a label, then its undo, which says what it did
  await page.locator('[data-leaf="true"]').click();
  await page.getByTestId("label-input").fill("checkpoint");
  await page.getByTestId("label-save").click();
  await expect(page.getByTestId("undo-button")).toBeEnabled();
  // time stands still from here: the undo's notification is shown at the moment the clock stopped
  await page.clock.pauseAt(Date.now() + 1_000);
  await page.getByTestId("undo-button").click();
  const info = notes.filter({ hasText: "The label is undone" });
  await expect(info).toHaveAttribute("data-level", "info");
  await page.clock.runFor(4_900);
  await expect(info).toBeVisible();
  await page.clock.runFor(100);
  await expect(info).toHaveCount(0);

  // an error: a prompt without a model configured; it stays however long the page's clock runs
  await page.getByTestId("composer-input").fill("continue please");
  await page.getByTestId("composer-send").click();
  const error = notes.filter({ hasText: "so the prompt was not sent" });
  await expect(error).toHaveAttribute("data-level", "error");
  await expect(error.locator(".notification__text")).toHaveText(/^No model configured: .*, so the prompt was not sent\.$/u);
  await page.clock.runFor(60_000);
  await expect(error).toBeVisible();
  await page.clock.resume();
  await screenshot(page, testInfo, "notifications-dark-check");
  await error.getByTestId("notification-dismiss").click();
  await expect(error).toHaveCount(0);
});
