/** Browser mode refuses a page that lacks the token, and says what to do. */
import { test, expect } from "../support/fixtures";

test("without the token the page explains how to connect, and no data is served", async ({ bonsai, page, target }, testInfo) => {
  test.skip(target === "electron", "browser mode only");
  const origin = new URL(bonsai.url).origin;
  await page.goto(`${origin}/`);
  await expect(page.getByRole("status").filter({ hasText: "open the full address" })).toBeVisible();
  await expect(page.getByTestId("session-list-unavailable")).toContainText("cannot reach the Bonsai backend");
  await expect(page.getByTestId("session-list")).toHaveCount(0);
  await expect(page.getByTestId("session-list-empty")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("no-token.png") });

  // the token typed into the page signs in, and is kept for the tab
  await page.getByTestId("token-input").fill(new URL(bonsai.url).searchParams.get("token") as string);
  await page.getByTestId("token-sign-in-button").click();
  await expect(page.getByTestId("session-list-empty")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("session-list-empty")).toBeVisible();
  await page.evaluate(() => sessionStorage.clear());

  // with the token, the same page connects (and the token leaves the address bar)
  await page.goto(bonsai.url);
  await expect(page.getByTestId("session-list-empty")).toBeVisible();
  expect(page.url()).not.toContain("token=");
});
