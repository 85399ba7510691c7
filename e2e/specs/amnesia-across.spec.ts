/**
 * The amnesia report across sessions in the page: over the local store (real pi sessions with
 * compactions, and one without), and on a team archive signed in as a member (her project's
 * sessions only). Sessions are listed worst first; choosing a compaction opens its session there,
 * with the session's amnesia panel beside it. Screenshots in both themes at 1024 and 1400 px wide
 * (.test-results/amnesia-across).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Page } from "@playwright/test";
import { bonsaiCli, startPageArchive, type PageArchive } from "../support/archive";
import { REPO_ROOT, SHARED_FIXTURES } from "../support/paths";
import { expect, test } from "./explorer-fixtures";

const PI = path.join(SHARED_FIXTURES, "real/pi");
/** 4 compactions (the worst scores 10: files read again) */
const WORST = "codyborders__yinshi__entire-metadata_019dd1b7-a5a1-776d-a01b-8e0a84059557_full.jsonl";
/** 1 compaction */
const MILD = "raquezha__pi.dev__96_2b1009dcd7_0_full.jsonl";
/** no compaction: not in the report */
const PLAIN = "raquezha__pi.dev__96_2b1009dcd7_2_full.jsonl";
const SCREENSHOTS = path.join(REPO_ROOT, ".test-results/amnesia-across");

function headerId(file: string): string {
  return (JSON.parse(fs.readFileSync(path.join(PI, file), "utf8").split("\n")[0] as string) as { id: string }).id;
}

/** the page in a theme, without the header's toggle (a dialog may be over it) */
async function themed(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate((s) => document.documentElement.setAttribute("data-theme", s), theme);
}

async function shoot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of [1024, 1400]) {
    for (const theme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height: 820 });
      await themed(page, theme);
      await page.waitForTimeout(250); // layout settles before the picture
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}-${theme}.png`) });
    }
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

test.describe.configure({ mode: "serial" });

test("the local store: sessions worst first, a compaction opens its session there with the amnesia panel", async ({ app: page }) => {
  test.skip(!fs.existsSync(PI), `${PI} is not present next to the checkout`);
  test.setTimeout(180_000);
  await page.getByTestId("import-input").setInputFiles([WORST, MILD, PLAIN].map((f) => path.join(PI, f)));
  await expect(page.getByTestId("session-item")).toHaveCount(3, { timeout: 60_000 });

  await page.keyboard.press("Shift+A");
  const dialog = page.getByTestId("amnesia-all");
  await expect(dialog).toBeVisible();
  const sessions = dialog.getByTestId("amnesia-all-session");
  await expect(sessions).toHaveCount(2, { timeout: 60_000 });
  await expect(sessions.nth(0)).toHaveAttribute("data-session-id", headerId(WORST));
  await expect(sessions.nth(1)).toHaveAttribute("data-session-id", headerId(MILD));
  await expect(dialog.getByTestId("amnesia-all-totals")).toContainText("2 sessions with 5 compactions and 0 prunings");
  await expect(sessions.nth(0).getByTestId("amnesia-all-point")).toHaveCount(4);
  await expect(dialog.getByTestId("amnesia-all-project")).toHaveCount(0);
  await shoot(page, "local");

  // the worst compaction: its session opens at it, the amnesia panel beside the tree
  const worst = sessions.nth(0).getByTestId("amnesia-all-point").first();
  const entryId = (await worst.getAttribute("data-entry-id")) as string;
  await expect(worst).toContainText("score 10");
  await worst.click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId(`tree-node-${entryId}`)).toHaveAttribute("data-selected", "true", { timeout: 30_000 });
  await expect(page.getByTestId("tab-amnesia")).toHaveAttribute("aria-selected", "true");
  await shoot(page, "local-opened");

  // from the session's amnesia panel and the palette too; Escape closes it
  await page.getByTestId("amnesia-open-all").click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await page.keyboard.press("Control+k");
  await page.getByTestId("palette-input").fill("Amnesia across");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});

test.describe("on a team archive", () => {
  let archive: PageArchive | undefined;
  let work = "";
  const tokens: Record<string, string> = {};

  test.beforeAll(async () => {
    test.skip(!fs.existsSync(PI), `${PI} is not present next to the checkout`);
    test.setTimeout(240_000);
    archive = await startPageArchive("amnesia_e2e");
    const admin = (...args: string[]) => bonsaiCli(["team", ...args, "--database", (archive as PageArchive).database]);
    admin("project", "add", "alpha");
    admin("project", "add", "beta");
    for (const name of ["amy", "ben"]) tokens[name] = (JSON.parse(admin("user", "add", name, "--json")) as { token: string }).token;
    admin("grant", "amy", "alpha");
    admin("grant", "ben", "beta");
    work = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-amnesia-e2e-"));
    for (const [who, project, files] of [["amy", "alpha", [WORST, PLAIN]], ["ben", "beta", [MILD]]] as const) {
      const dataDir = path.join(work, who);
      bonsaiCli(["import", ...files.map((f) => path.join(PI, f)), "--data-dir", dataDir]);
      bonsaiCli(["push", "--all", "--to", archive.origin, "--project", project, "--data-dir", dataDir], { BONSAI_TOKEN: tokens[who] as string });
    }
  });

  test.afterAll(async () => {
    await archive?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test("a member sees her project's sessions only, and opens one at its compaction", async ({ page }) => {
    test.setTimeout(180_000);
    const frames: string[] = [];
    page.on("websocket", (ws) => ws.on("framereceived", (f) => frames.push(String(f.payload))));
    const origin = (archive as PageArchive).origin;
    await page.goto(`${origin}/`);
    await page.getByTestId("token-input").fill(tokens.amy as string);
    await page.getByTestId("token-sign-in-button").click();
    await expect(page.getByTestId("archive-badge")).toHaveText("Archive · amy");

    await page.getByTestId("open-palette").click();
    await page.getByTestId("palette-input").fill("Amnesia across");
    await page.keyboard.press("Enter");
    const dialog = page.getByTestId("amnesia-all");
    const sessions = dialog.getByTestId("amnesia-all-session");
    await expect(sessions).toHaveCount(1, { timeout: 60_000 });
    await expect(sessions.first()).toHaveAttribute("data-session-id", `alpha/amy/${headerId(WORST)}`); // the page names an archived session by its key: project, person and id
    await expect(sessions.first()).toContainText("alpha · pushed by amy");
    await expect(dialog.getByTestId("amnesia-all-project").locator("option")).toHaveText(["All my projects", "alpha"]);
    await shoot(page, "archive");
    await dialog.getByTestId("amnesia-all-project").selectOption("alpha");
    await expect(sessions).toHaveCount(1);

    const point = sessions.first().getByTestId("amnesia-all-point").first();
    const entryId = (await point.getAttribute("data-entry-id")) as string;
    await point.click();
    await expect(page.getByTestId(`tree-node-${entryId}`)).toHaveAttribute("data-selected", "true", { timeout: 60_000 });
    await expect(page.getByTestId("tab-amnesia")).toHaveAttribute("aria-selected", "true");
    await shoot(page, "archive-opened");

    // nothing the page received names the other project's session
    const beta = headerId(MILD);
    expect(frames.filter((f) => f.includes(beta) || f.includes('"beta"'))).toEqual([]);
  });
});
