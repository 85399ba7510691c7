/**
 * First run: with no session in Bonsai, the main area offers the agents' default folders found on
 * this machine (with how many sessions each holds) and the file picker; one click imports a folder.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { SHARED_FIXTURES, sharedFixture } from "../support/paths";
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

// Claude Code's and Codex's default folders, with a real file each (when the shared fixtures are here)
const CLAUDE = sharedFixture("real/claude-code/entireio__cli__b0_dc55b3a1dc_1_full.jsonl");
const CODEX = sharedFixture("real/codex/EntityProcess__agentv__00_34f597b72d_1_full.jsonl");
const haveReal = CLAUDE !== null && CODEX !== null;
const NO_REAL = `the real Claude Code / Codex files of ${SHARED_FIXTURES}/real are not present next to the checkout`;
if (!haveReal) console.warn(`${NO_REAL}: onboarding shows pi and oh-my-pi folders only`);
else {
  for (const [from, rel] of [
    [CLAUDE, ".claude/projects/-home-dev-onboard/5d2c.jsonl"],
    [CODEX, ".codex/sessions/2026/01/04/rollout-2026-01-04T10-00-00-0001.jsonl"],
  ] as const) {
    fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
    fs.copyFileSync(from, path.join(home, rel));
  }
}

test.use({ serveEnv: { HOME: home } });
test.afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

test("the empty state offers the agents' folders it found, with counts, and the file picker", async ({ app: page }, testInfo) => {
  const onboarding = page.getByTestId("onboarding");
  await expect(onboarding).toBeVisible();
  const folders = page.getByTestId("onboarding-folder");
  await expect(folders).toHaveCount(haveReal ? 4 : 2);
  await expect(folders.filter({ hasText: "pi" }).first()).toContainText(path.join(home, ".pi/agent/sessions"));
  await expect(page.locator('[data-testid="onboarding-folder"][data-agent="pi"] [data-testid="onboarding-folder-count"]')).toHaveText("2 session files");
  await expect(page.locator('[data-testid="onboarding-folder"][data-agent="oh-my-pi"] [data-testid="onboarding-folder-count"]')).toHaveText("1 session file");
  if (haveReal) {
    await expect(page.locator('[data-testid="onboarding-folder"][data-agent="Claude Code"]')).toContainText(path.join(home, ".claude/projects"));
    await expect(page.locator('[data-testid="onboarding-folder"][data-agent="Claude Code"] [data-testid="onboarding-folder-count"]')).toHaveText("1 session file");
    await expect(page.locator('[data-testid="onboarding-folder"][data-agent="Codex"] [data-testid="onboarding-folder-count"]')).toHaveText("1 session file");
  }
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

test("a Claude Code folder found on first run imports in one click, read-only, with its agent badge", async ({ app: page }, testInfo) => {
  test.skip(!haveReal, NO_REAL);
  await page.locator('[data-testid="onboarding-folder"][data-agent="Claude Code"] [data-testid="onboarding-import-folder"]').click();
  const item = page.getByTestId("session-item");
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId("session-agent")).toHaveText("Claude Code");
  await expect(item.getByTestId("session-read-only")).toBeVisible();
  await item.click();
  await expect(page.getByTestId("read-only-notice")).toBeVisible();
  await screenshot(page, testInfo, "onboarding-claude-code-light");
});
