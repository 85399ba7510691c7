/**
 * A tree readable at every zoom. Zoomed in: 12-13 px text, chips in a row of their own and never
 * cut, brackets beside the column. Fit on a 100,000-entry session: the overview — compaction bands
 * ("before → after tok"), branch points and leaves — with at most 3,000 DOM elements in the canvas.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import { expect, generatedSessionFile, importAndOpen, longDashedSides, screenshot, setTheme, test } from "./explorer-fixtures";


test("nodes: 12-13 px text, chips in their own row and never cut, brackets beside the column", async ({ app: page }, testInfo) => {
  const file = await generatedSessionFile(testInfo, "Readable fixture", { entries: 260, seed: 111, compactionInterval: 90, branchProbability: 0.2 });
  await importAndOpen(page, file, "Readable fixture");
  await page.getByTestId("zoom-leaf").click();
  await expect(page.getByTestId("bracket-kept")).toBeVisible();
  for (const kind of ["summarized", "kept"]) expect(await longDashedSides(page.getByTestId(`bracket-${kind}`)), kind).toEqual([]);
  const report = await page.evaluate(() => {
    const problems: string[] = [];
    let texts = 0;
    for (const node of document.querySelectorAll<HTMLElement>(".react-flow__node .bz-node")) {
      const box = node.getBoundingClientRect();
      const zoom = box.width / node.offsetWidth;
      for (const el of node.querySelectorAll<HTMLElement>("*")) {
        if (!el.textContent?.trim() || el.children.length > 0) continue;
        texts++;
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < 12 || size > 13) problems.push(`${node.dataset.testid}: ${size}px "${el.textContent.slice(0, 20)}"`);
      }
      const chips = node.querySelector<HTMLElement>(".bz-node-chips");
      const head = node.querySelector<HTMLElement>(".bz-node-head");
      const preview = node.querySelector<HTMLElement>(".bz-node-preview");
      if (chips && head && preview) {
        const c = chips.getBoundingClientRect();
        if (c.top < preview.getBoundingClientRect().bottom - 0.5) problems.push(`${node.dataset.testid}: chips overlap the preview`);
        for (const chip of chips.children) {
          const r = chip.getBoundingClientRect();
          if (r.right > c.right + 0.5 || r.bottom > box.bottom + 0.5) problems.push(`${node.dataset.testid}: chip "${chip.textContent}" is cut`);
        }
      }
      if (zoom < 0.5) problems.push("zoomed out");
    }
    return { problems, texts };
  });
  expect(report.texts).toBeGreaterThan(8);
  expect(report.problems).toEqual([]);
  await screenshot(page, testInfo, "nodes-light");
  await setTheme(page, "dark");
  await screenshot(page, testInfo, "nodes-dark");
});

test("Fit on 100,000 entries shows the shape: bands and branch points, at most 3,000 DOM elements", async ({ app: page, bonsai }, testInfo) => {
  test.setTimeout(300_000);
  const file = path.join(bonsai.sessionsDir, "overview-100k.jsonl");
  const session = generateSession({ entries: 100_000, seed: 100, contentScale: 0.25 });
  session.header.title = "Overview 100k";
  await writeSessionJsonl(file, session);
  const imported = await bonsai.call<{ results: Array<{ ok: boolean; error: string | null }> }>("importSessions", { paths: [file] });
  expect(imported.results[0]?.ok, imported.results[0]?.error ?? "").toBe(true);
  await page.reload();
  await page.getByTestId("session-item").filter({ hasText: "Overview 100k" }).click();
  await expect(page.locator(".react-flow__node").first()).toBeVisible({ timeout: 60_000 });
  await page.getByTestId("zoom-fit").click();
  const overview = page.getByTestId("tree-overview");
  await expect(overview).toBeVisible();
  expect(Number(await overview.getAttribute("data-compaction-bands"))).toBeGreaterThan(10);
  expect(Number(await overview.getAttribute("data-branch-points"))).toBeGreaterThan(10);
  await expect(page.getByTestId("compaction-band").first()).toContainText(/→ [\d.]+K? tok/u);
  await expect(page.getByTestId("overview-leaf")).toBeVisible();
  const elements = await page.getByTestId("tree-canvas").evaluate((el) => el.querySelectorAll("*").length);
  expect(elements).toBeLessThanOrEqual(3000);
  testInfo.annotations.push({ type: "dom elements in the canvas at Fit (100,000 entries)", description: String(elements) });
  const shots = path.resolve(testInfo.outputDir, "..", "fit-100k");
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, "fit-100k-light.png") });
  await screenshot(page, testInfo, "fit-100k-light");
  await setTheme(page, "dark");
  await page.screenshot({ path: path.join(shots, "fit-100k-dark.png") });
  await screenshot(page, testInfo, "fit-100k-dark");
  // a click on a bar selects its node, and the inspector follows
  const canvas = (await page.getByTestId("tree-canvas").boundingBox())!;
  await page.mouse.click(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  await expect(page.locator('[data-testid="inspector"], [data-testid="inspector-segment"], .bz-empty').first()).toBeVisible();
});
