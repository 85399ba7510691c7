/**
 * The self-contained HTML export (`bonsai export FILE --format html`) of real Claude Code, Codex and
 * pi sessions, opened from disk in Chromium: no network request at all, the tree and the transcript
 * are there, tool calls fold, the theme switches; screenshots in both themes for a person to look at.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { CLI, REPO_ROOT, SHARED_FIXTURES } from "../support/paths";

const CASES = [
  { name: "claude-code-compactions", file: "real/claude-code/entireio__cli__cd_95adddad32_0_full.jsonl", compactions: 3, branches: 0 },
  { name: "claude-code-sidechains", file: "real/claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", compactions: 0, branches: 0 },
  { name: "codex-remote-compaction", file: "real/codex/EntityProcess__agentv__00_34f597b72d_1_full.jsonl", compactions: 2, branches: 0 },
  { name: "codex-rollback", file: "real/codex/ta93abe__me__1b_d3b5f272f9_0_full.jsonl", compactions: 0, branches: 1 },
  { name: "pi-branch", file: "real/pi/mholtzscher__pi-herdr-subagents__1_full.jsonl", compactions: 0, branches: 1 },
];

const SCREENSHOTS = path.join(REPO_ROOT, ".test-results/html-export");

for (const c of CASES) {
  test(`HTML export of ${c.name}: offline, tree and transcript, both themes`, async ({ page }, testInfo) => {
    const source = path.join(SHARED_FIXTURES, c.file);
    test.skip(!fs.existsSync(source), `${source} is not present next to the checkout`);
    const out = testInfo.outputPath(`${c.name}.html`);
    const r = spawnSync(process.execPath, [CLI, "export", source, "--format", "html", "-o", out], { encoding: "utf8" });
    expect(r.stderr).toMatch(/^bonsai: wrote .*\(\d+ entries, html\)\n$/);
    expect(r.status).toBe(0);

    const url = pathToFileURL(out).href;
    const requests: string[] = [];
    const problems: string[] = [];
    page.on("request", (req) => requests.push(req.url()));
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(msg.text());
    });
    page.on("pageerror", (err) => problems.push(err.message));
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto(url);

    // the tree: segments, the active path, the leaf, compactions and branches marked
    const tree = page.locator("nav.tree-panel");
    await expect(tree.locator("li.segment.active").first()).toBeVisible();
    await expect(tree.locator(".badge.leaf")).toHaveCount(1);
    await expect(tree.locator(".row.compaction")).toHaveCount(c.compactions);
    await expect(tree.locator("ul.branches")).toHaveCount(c.branches);
    // the transcript of the active path, with folded tool calls that open
    const transcript = page.locator(".transcript");
    expect(await transcript.locator("section.entry").count()).toBeGreaterThan(0);
    await expect(transcript.locator("section.compaction")).toHaveCount(c.compactions); // every compaction of these files is on the active path
    const call = transcript.locator("details.tool").first();
    await expect(call).toBeVisible();
    await call.locator("summary").click();
    await expect(call.locator("pre")).toBeVisible();
    await expect(page.locator("figure.chart svg polyline")).toHaveCount(1);
    // a tree row of the active path jumps to its transcript block
    const link = tree.locator("a.row").last();
    const target = (await link.getAttribute("href")) as string;
    await link.click();
    await expect(page.locator(target)).toBeInViewport();

    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENSHOTS, `${c.name}-light.png`) });
    await page.locator("#theme").click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await page.screenshot({ path: path.join(SCREENSHOTS, `${c.name}-dark.png`) });
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(22, 24, 28)");

    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
  });
}
