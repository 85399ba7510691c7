/**
 * A year of sessions in the list: the rows are drawn RENDER_STEP (150) at a time, more as the list
 * is scrolled to its end, so thousands of sessions cost the page what 150 do; the filter still
 * finds every session, drawn or not.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import { bonsaiCli } from "../support/fixtures";
import { BonsaiServer, expect, screenshot, setTheme, test } from "./explorer-fixtures";

const SESSIONS = 400;
const STEP = 150;
const GROUPS = 4;

test.describe.configure({ timeout: 180_000 });

test("hundreds of sessions: drawn 150 at a time as the list scrolls, every one found by the filter", async ({ page }, testInfo) => {
  const dataDir = testInfo.outputPath("data");
  const folder = testInfo.outputPath("sessions");
  fs.mkdirSync(dataDir, { recursive: true });
  fs.mkdirSync(folder, { recursive: true });
  for (let i = 0; i < SESSIONS; i++) {
    const session = generateSession({ entries: 6, seed: 700 + i, sessionId: `many-${String(i).padStart(3, "0")}` });
    session.header.title = `Year session ${String(i).padStart(3, "0")}`;
    session.header.cwd = `/work/project-${i % GROUPS}`; // four project folders of 100 sessions
    await writeSessionJsonl(path.join(folder, `s${i}.jsonl`), session);
  }
  bonsaiCli(["import", folder], { BONSAI_DB: path.join(dataDir, "bonsai.db") });

  const server = new BonsaiServer(dataDir);
  await server.start();
  try {
    await page.goto(server.url);
    await expect(page.getByTestId("session-count")).toHaveText(`${SESSIONS} sessions`);
    const rows = page.getByTestId("session-item");
    await expect(rows).toHaveCount(STEP);
    const more = page.getByTestId("session-list-more");
    await expect(more).toHaveText(`${SESSIONS - STEP} more…`);
    // the first project's 100 rows and 50 of the second's: no heading of a project not drawn yet
    const groups = page.getByTestId("session-group");
    await expect(groups).toHaveCount(2);
    await expect(groups.nth(1).getByTestId("session-item")).toHaveCount(STEP - SESSIONS / GROUPS);

    // scrolled to the end of what is drawn: the next rows come, until all are there
    for (let drawn = STEP; drawn < SESSIONS; drawn += STEP) {
      await more.scrollIntoViewIfNeeded();
      await expect(rows).toHaveCount(Math.min(SESSIONS, drawn + STEP));
    }
    await expect(more).toHaveCount(0);
    await expect(groups).toHaveCount(GROUPS);
    await setTheme(page, "dark");
    await screenshot(page, testInfo, "session-list-all-drawn-dark");

    // the filter finds a session the first rows do not hold
    await page.reload();
    await expect(rows).toHaveCount(STEP);
    const drawnIds = new Set(await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-session-id"))));
    const index = Array.from({ length: SESSIONS }, (_, i) => i).find((i) => !drawnIds.has(`many-${String(i).padStart(3, "0")}`)) as number;
    expect(index).toBeDefined();
    const name = String(index).padStart(3, "0");
    await page.getByTestId("session-filter").fill(`Year session ${name}`);
    await expect(rows).toHaveCount(1);
    await expect(rows).toHaveAttribute("data-session-id", `many-${name}`);
    await expect(more).toHaveCount(0);
    await expect(page.getByTestId("session-count")).toHaveText(`1 of ${SESSIONS} sessions`);
    await setTheme(page, "light");
    await screenshot(page, testInfo, "session-list-filtered-light");
  } finally {
    await server.stop();
  }
});
