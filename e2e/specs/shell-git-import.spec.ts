/**
 * "Import from a Git Repository…" in browser mode: the first-run screen offers a repository with
 * Entire checkpoints that a session file's working folder names; one click imports its sessions,
 * which show "produced N commits" in the list and their commits above the open session. The dialog
 * (From Git…) refuses a repository outside the session folders. Screenshots in both themes at 1024 px.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EntireRepo } from "@bonsai/testkit/entire-repo";
import { SHARED_FIXTURES, sharedFixture } from "../support/paths";
import { expect, screenshot, setTheme, test } from "./explorer-fixtures";

const PI = sharedFixture("real/pi/raquezha__pi.dev__96_2b1009dcd7_2_full.jsonl");
const CODEX = sharedFixture("real/codex/iampkuhz__feipi-session-browser__rollout-2026-06-19T12-32-38-019ede26-ff03-7a82-bb34-cfab716a498a.jsonl");
const NO_REAL = `the real pi / Codex files of ${SHARED_FIXTURES}/real are not present next to the checkout`;

const home = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-e2e-git-"));
const repo = EntireRepo.create(path.join(home, "src"));
if (PI && CODEX) {
  repo.addCheckpoint("c0ffee123456", [
    { sessionId: "pi-git", agent: "Pi", createdAt: "2026-04-26T10:00:00Z", transcript: fs.readFileSync(PI) },
    { sessionId: "codex-git", agent: "Codex", createdAt: "2026-04-26T10:00:01Z", transcript: fs.readFileSync(CODEX) },
  ]);
  repo.commitCode("src/parser.ts", "export const parse = () => 1;\n", "Teach the parser compact transcripts", ["c0ffee123456"]);
  // an agent's session file whose working folder is the repository: what first run looks at
  const file = path.join(home, ".pi/agent/sessions/--project--/2026-04-26T10-00-00-000Z_a.jsonl");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ type: "session", version: 3, id: "local-1", timestamp: "2026-04-26T10:00:00.000Z", cwd: repo.dir })}\n`);
}

test.use({ serveEnv: { HOME: home } });
test.afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

test("first run offers the repository; its sessions come with the commits they produced", async ({ app: page }, testInfo) => {
  test.skip(!PI || !CODEX, NO_REAL);
  await page.setViewportSize({ width: 1024, height: 760 });
  await setTheme(page, "light");
  const offered = page.getByTestId("git-repository");
  await expect(offered).toHaveCount(1);
  await expect(offered).toContainText(repo.dir);
  await screenshot(page, testInfo, "git-onboarding-light");
  await offered.getByTestId("git-repository-import").click();

  const items = page.getByTestId("session-item");
  await expect(items).toHaveCount(2);
  await expect(page.getByTestId("notification").filter({ hasText: "1 checkpoint read, 2 sessions imported or updated, 1 commit newly linked" })).toBeVisible();
  await expect(page.getByTestId("session-commits-count")).toHaveText(["produced 1 commit", "produced 1 commit"]);

  await items.filter({ has: page.getByTestId("session-agent").filter({ hasText: "Codex" }) }).click();
  await expect(page.getByTestId("session-view")).toBeVisible();
  const commits = page.getByTestId("session-commits");
  await expect(page.getByTestId("session-commits-summary")).toHaveText("produced 1 commit");
  await page.getByTestId("session-commits-summary").click();
  await expect(commits.getByTestId("session-commit-subject")).toHaveText("Teach the parser compact transcripts");
  await expect(commits.getByTestId("session-commit-files")).toHaveText("src/parser.ts");
  await screenshot(page, testInfo, "git-session-commits-light");
  await setTheme(page, "dark");
  await screenshot(page, testInfo, "git-session-commits-dark");

  // again from the dialog: the offered repository reads nothing new
  await page.getByTestId("git-import-button").click();
  const dialog = page.getByTestId("git-import-dialog");
  await expect(dialog.getByTestId("git-repository")).toContainText(repo.dir);
  await screenshot(page, testInfo, "git-dialog-dark");
  await dialog.getByTestId("git-repository-import").click();
  await expect(page.getByTestId("notification").filter({ hasText: "0 new checkpoints read (of 1), 0 sessions imported or updated, 0 commits newly linked" })).toBeVisible();
});

test("the dialog refuses a repository outside the session folders, in one line", async ({ app: page }, testInfo) => {
  test.skip(!PI || !CODEX, NO_REAL);
  await page.setViewportSize({ width: 1024, height: 760 });
  await setTheme(page, "light");
  await page.getByTestId("git-import-button").click();
  await page.getByTestId("git-import-path").fill(path.join(os.tmpdir(), "elsewhere"));
  await screenshot(page, testInfo, "git-dialog-light");
  await page.getByTestId("git-import-start").click();
  await expect(page.getByTestId("git-import-dialog")).toBeHidden();
  await expect(page.getByTestId("notification").filter({ hasText: "outside the session folders" })).toBeVisible();
  await expect(page.getByTestId("session-item")).toHaveCount(0);
});
