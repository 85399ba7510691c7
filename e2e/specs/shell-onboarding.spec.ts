/**
 * First run: with no session in Bonsai, the main area offers the agents' default folders found on
 * this machine (with how many sessions each holds) and the file picker; one click imports a folder.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { expect, screenshot, test } from "./explorer-fixtures";

// a home folder of its own for the served backend, where pi and oh-my-pi keep sessions
const home = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-e2e-home-"));
const write = (rel: string, seed: number, title: string) => {
  const file = path.join(home, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const session = generateSession({ entries: 60, seed, cwd: "/home/dev/onboard" });
  session.header.title = title;
  fs.writeFileSync(file, sessionToJsonl(session));
};
write(".pi/agent/sessions/--home-dev-onboard--/2026-01-01T10-00-00-000Z_a.jsonl", 71, "Pi session one");
write(".pi/agent/sessions/--home-dev-onboard--/2026-01-02T10-00-00-000Z_b.jsonl", 72, "Pi session two");
write(".omp/agent/sessions/--home-dev-onboard--/2026-01-03T10-00-00-000Z_c.jsonl", 73, "Omp session");

test.use({ serveEnv: { HOME: home } });
test.afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

test("the empty state offers the agents' folders it found, with counts, and the file picker", async ({ app: page }, testInfo) => {
  const onboarding = page.getByTestId("onboarding");
  await expect(onboarding).toBeVisible();
  const folders = page.getByTestId("onboarding-folder");
  await expect(folders).toHaveCount(2);
  await expect(folders.filter({ hasText: "pi" }).first()).toContainText(path.join(home, ".pi/agent/sessions"));
  await expect(page.locator('[data-testid="onboarding-folder"][data-agent="pi"] [data-testid="onboarding-folder-count"]')).toHaveText("2 session files");
  await expect(page.locator('[data-testid="onboarding-folder"][data-agent="oh-my-pi"] [data-testid="onboarding-folder-count"]')).toHaveText("1 session file");
  await expect(page.getByTestId("onboarding-choose-files")).toBeVisible();
  await screenshot(page, testInfo, "onboarding-light");

  await page.locator('[data-testid="onboarding-folder"][data-agent="pi"] [data-testid="onboarding-import-folder"]').click();
  await expect(page.getByTestId("session-item")).toHaveCount(2);
  await expect(page.getByTestId("session-item").filter({ hasText: "Pi session one" })).toBeVisible();
  await expect(onboarding).toBeHidden();

  // the file picker is the same as the Import button's
  await page.getByTestId("session-row").first().getByTestId("session-menu").click();
  await page.getByTestId("session-menu-remove").click();
  await page.getByTestId("remove-confirm").click();
  await page.getByTestId("session-row").first().getByTestId("session-menu").click();
  await page.getByTestId("session-menu-remove").click();
  await page.getByTestId("remove-confirm").click();
  await expect(onboarding).toBeVisible();
  const chooser = page.waitForEvent("filechooser");
  await page.getByTestId("onboarding-choose-files").click();
  await (await chooser).setFiles(path.join(home, ".omp/agent/sessions/--home-dev-onboard--/2026-01-03T10-00-00-000Z_c.jsonl"));
  await expect(page.getByTestId("session-item").filter({ hasText: "Omp session" })).toBeVisible();
});
