/**
 * The small things a daily user notices (issue 32, point 8), on real Claude Code and Codex files of
 * ../shared/fixtures/real (uploaded through the import button: the real folders are outside the
 * host's session folders) and a generated oh-my-pi session:
 * - the filter matches the agent ("Codex" finds every Codex session), the folder path and the title;
 * - groups whose folders share a last part ("cli") are headed by the part of the path that tells
 *   them apart ("wks/cli", "devenv/cli");
 * - a title cut by the row's width carries the full title for the pointer (its title attribute);
 * - the Prune panel, when nothing would be pruned, says why with the CLI's own sentence.
 * (Agent event lines folded into one row per run: explorer-agent-events.spec.ts.)
 * Screenshots at 1024 and 1400 px wide, light and dark.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import type { Page, TestInfo } from "@playwright/test";
import { CLI, REPO_ROOT, sharedFixture } from "../support/paths";
import { expect, generatedSessionFile, screenshot, setTheme, test } from "./explorer-fixtures";

const CODEX = [
  "EntityProcess__agentv__00_34f597b72d_1_full.jsonl",
  "entireio__external-agents__2f_9ea0aa2380_0_full.jsonl",
  "iampkuhz__feipi-session-browser__rollout-2026-06-19T12-32-38-019ede26-ff03-7a82-bb34-cfab716a498a.jsonl",
  "ta93abe__me__0e_9c08d8603f_0_full.jsonl",
  "ta93abe__me__1b_d3b5f272f9_0_full.jsonl",
  "ta93abe__me__4a_c67b9b3296_0_full.jsonl",
].map((name) => sharedFixture(`real/codex/${name}`));
// two Claude Code sessions in folders both called "cli": /Users/gtrrz-victor/wks/cli and /Users/soph/Work/entire/devenv/cli
const CLAUDE_WKS_CLI = sharedFixture("real/claude-code/entireio__cli__9b_04c3d92e38_2_full.jsonl");
const CLAUDE_DEVENV_CLI = sharedFixture("real/claude-code/entireio__cli__ca_fca7ea73ac_0_full.jsonl");
// a Codex session whose plan prunes nothing: 20 results would save less than the minimum
const CODEX_SMALL_PRUNE = sharedFixture("real/codex/ta93abe__me__4a_c67b9b3296_0_full.jsonl");

const LONG_TITLE = "Rewrite the session parser so that every agent's format is read by one reader, with its quirks documented line by line";

async function shots(page: Page, testInfo: TestInfo, name: string, before?: () => Promise<void>): Promise<void> {
  for (const width of [1024, 1400]) {
    await page.setViewportSize({ width, height: 820 });
    await before?.();
    for (const theme of ["light", "dark"] as const) {
      await setTheme(page, theme);
      await screenshot(page, testInfo, `${name}-${width}-${theme}`);
    }
  }
}

/** The reason the CLI prints for a file whose plan prunes nothing (`bonsai prune --dry-run`). */
function cliNothingReason(file: string, testInfo: TestInfo): string {
  const out = execFileSync(process.execPath, [CLI, "prune", "--dry-run", "--data-dir", testInfo.outputPath("cli-data"), file], { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, OPENAI_API_KEY: "" } });
  const line = out.split("\n").find((l) => l.startsWith("Nothing to prune:"));
  if (!line) throw new Error(`the CLI printed no reason:\n${out}`);
  return line.trim();
}

test.describe("small things a daily user notices", () => {
  test.skip(CODEX.some((f) => !f) || !CLAUDE_WKS_CLI || !CLAUDE_DEVENV_CLI, "the real Claude Code / Codex files of ../shared/fixtures/real are not present next to the checkout");
  test.skip(({ target }) => target === "electron", "imports through the browser's file input");

  test("the filter matches agent, folder and title; same-named folders are told apart; a cut title shows in full on hover", async ({ app: page }, testInfo) => {
    test.setTimeout(300_000);
    const pi = await generatedSessionFile(testInfo, LONG_TITLE, { entries: 40, seed: 81, cwd: "/home/dev/tools/cli", compactionInterval: 0 });
    const files = [...(CODEX as string[]), CLAUDE_WKS_CLI!, CLAUDE_DEVENV_CLI!, pi];
    await page.getByTestId("import-input").setInputFiles(files);
    await expect(page.getByTestId("import-result")).toContainText(`Imported ${files.length} of ${files.length} files`, { timeout: 240_000 });
    const items = page.getByTestId("session-item");
    await expect(items).toHaveCount(files.length);

    // the agent: "Codex" finds every Codex session, and only those
    const filter = page.getByTestId("session-filter");
    await filter.fill("Codex");
    await expect(items).toHaveCount(CODEX.length);
    await expect(page.getByTestId("session-count")).toHaveText(`${CODEX.length} of ${files.length} sessions`);
    for (const agent of await page.getByTestId("session-agent").allTextContents()) expect(agent).toBe("Codex");
    await filter.fill("claude code");
    await expect(items).toHaveCount(2);
    // the folder path, the part before the last one included, and with the agent
    await filter.fill("devenv/cli");
    await expect(items).toHaveCount(1);
    await expect(page.getByTestId("session-group")).toHaveAttribute("data-folder", "/Users/soph/Work/entire/devenv/cli");
    await filter.fill("entire/devenv codex");
    await expect(items).toHaveCount(1);
    await expect(page.getByTestId("session-group")).toHaveAttribute("data-folder", "/Users/soph/Work/entire/devenv/external-agents");
    await filter.fill("ta93abe");
    await expect(items).toHaveCount(3);
    // the title
    await filter.fill("quirks documented");
    await expect(items).toHaveCount(1);
    await expect(items).toContainText(LONG_TITLE);

    // three folders called "cli": each heading is the shortest tail of its path that no other has
    await filter.fill("cli");
    const headings = page.getByTestId("session-group");
    await expect(headings).toHaveCount(3);
    const names = await headings.evaluateAll((els) => els.map((el) => [el.getAttribute("data-folder"), el.querySelector(".session-group__name")?.textContent]));
    expect(new Map(names as Array<[string, string]>)).toEqual(
      new Map([
        ["/Users/gtrrz-victor/wks/cli", "wks/cli"],
        ["/Users/soph/Work/entire/devenv/cli", "devenv/cli"],
        ["/home/dev/tools/cli", "tools/cli"],
      ]),
    );
    // the full path is the heading's tooltip
    await expect(headings.filter({ hasText: "devenv/cli" }).locator(".session-group__head")).toHaveAttribute("title", "/Users/soph/Work/entire/devenv/cli");

    // the long title is cut by the row (an ellipsis) and is whole in the tooltip
    const title = page.getByTestId("session-row").filter({ hasText: "Rewrite the session parser" }).getByTestId("session-title");
    await expect(title).toHaveAttribute("title", LONG_TITLE);
    await shots(page, testInfo, "daily-session-list", async () => {
      expect(await title.evaluate((el) => el.scrollWidth > el.clientWidth), "the title is cut at this width").toBe(true);
      await title.hover();
    });
    // every title the list shows carries its full text, real ones included
    await filter.fill("");
    for (const row of await page.getByTestId("session-title").all()) {
      const full = await row.getAttribute("title");
      expect(full, "a title without its tooltip").toBeTruthy();
      expect((await row.textContent()) ?? "").toContain(full!);
    }
  });

  test("the Prune panel gives the CLI's reason when nothing would be pruned", async ({ app: page }, testInfo) => {
    test.setTimeout(240_000);
    test.skip(!CODEX_SMALL_PRUNE, "the real Codex file is not present");
    const reason = cliNothingReason(CODEX_SMALL_PRUNE!, testInfo);
    expect(reason).toMatch(/^Nothing to prune: \d+ results would save only [\d,]+ tokens \(minimum 20,000\)\.$/u);
    await page.getByTestId("import-input").setInputFiles(CODEX_SMALL_PRUNE!);
    await expect(page.getByTestId("import-result")).toContainText("Imported 1 of 1 file", { timeout: 120_000 });
    await page.getByTestId("session-item").first().click();
    await expect(page.getByTestId("tree-status")).toHaveAttribute("data-leaf-id", /.+/u, { timeout: 60_000 });
    const open = async () => {
      await page.getByTestId("tab-prune").click();
      await expect(page.getByTestId("prune-nothing")).toHaveText(reason, { timeout: 60_000 });
    };
    await open();
    expect(fs.existsSync(CODEX_SMALL_PRUNE!)).toBe(true);
    await shots(page, testInfo, "daily-prune-nothing", open);
  });
});
