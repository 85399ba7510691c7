/**
 * What-if benchmark: a generated 10,000-entry session, open in the explorer, and the what-if section
 * of the Preferences pane. For each of RUNS typed values of the reserve, measured in the page:
 *   update      from the input event of the last keystroke to the frame after the one that showed
 *               the charts of its replay (two animation frames after the result was rendered)
 *   of which replay   the backend's time for the call (computeMs: the replay and thinning the series)
 * and, once, the first result after the pane opens (the backend reads the session's path then).
 * Run after `pnpm build`: pnpm exec playwright test -c e2e/bench/playwright.config.ts e2e/bench/whatif.bench.ts
 */
import * as path from "node:path";
import { generateSession, median, writeSessionJsonl } from "@bonsai/testkit";
import { expect, test } from "../support/fixtures";

const SIZE = 10_000;
const RUNS = 9;

test(`what-if chart with ${SIZE.toLocaleString("en")} entries`, async ({ app: page, bonsai }, testInfo) => {
  // in an agents' session folder of the host: the page may import paths there only
  const file = path.join(bonsai.sessionsDir, "whatif-bench.jsonl");
  const session = generateSession({ entries: SIZE, seed: 100, contentScale: 0.25, compactionInterval: 0 });
  session.header.title = "What-if bench";
  await writeSessionJsonl(file, session);
  const imported = await bonsai.call<{ results: Array<{ ok: boolean; error: string | null }> }>("importSessions", { paths: [file] });
  expect(imported.results[0]?.ok, imported.results[0]?.error ?? "").toBe(true);
  await page.addInitScript(() => {
    const bench = { inputAt: NaN, paintedAt: NaN, seen: "" };
    (window as unknown as { __whatif: typeof bench }).__whatif = bench;
    document.addEventListener("input", (e) => void (bench.inputAt = e.timeStamp), true);
    new MutationObserver(() => {
      const result = document.querySelector('[data-testid="whatif-result"]');
      const key = `${result?.getAttribute("data-update-ms")}|${document.querySelector('[data-testid="whatif-total-compactions"]')?.textContent}|${result?.textContent?.length}`;
      if (!result || key === bench.seen) return;
      bench.seen = key;
      requestAnimationFrame(() => requestAnimationFrame(() => void (bench.paintedAt = performance.now())));
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await page.reload();
  await page.getByTestId("session-item").filter({ hasText: "What-if bench" }).click();
  await expect(page.locator(".react-flow__node").first()).toBeVisible({ timeout: 60_000 });

  const opened = Date.now();
  await page.getByTestId("open-preferences").click();
  await expect(page.getByTestId("whatif-chart")).toHaveCount(1);
  const firstMs = Date.now() - opened;

  const update: number[] = [];
  const replay: number[] = [];
  const result = page.getByTestId("whatif-result");
  for (let run = 0; run < RUNS; run++) {
    const reserve = String(20000 + run * 9000);
    await page.evaluate(() => {
      const b = (window as unknown as { __whatif: { paintedAt: number } }).__whatif;
      b.paintedAt = NaN;
    });
    await page.getByTestId("whatif-reserveTokens").fill(reserve);
    await expect(page.getByText(`threshold ${(200000 - Number(reserve)).toLocaleString("en")}`)).toBeVisible();
    await expect(result).not.toHaveAttribute("data-running", "true");
    const ms = await page.evaluate(async () => {
      const b = (window as unknown as { __whatif: { inputAt: number; paintedAt: number } }).__whatif;
      while (Number.isNaN(b.paintedAt)) await new Promise((r) => setTimeout(r, 5));
      return b.paintedAt - b.inputAt;
    });
    update.push(ms);
    replay.push(Number(await result.getAttribute("data-compute-ms")));
  }
  const row = {
    entries: SIZE,
    activePath: Number(/([\d,]+) entries on the active path/u.exec((await page.getByTestId("whatif-chart").textContent()) ?? "")?.[1]?.replace(/,/gu, "")),
    firstResultMs: firstMs,
    updateMs: Math.round(median(update)),
    replayMs: Math.round(median(replay)),
    updateRuns: update.map(Math.round),
    replayRuns: replay,
  };
  console.log(`\n| entries | active path | first chart (pane opened, path read) | update after a keystroke (median of ${RUNS}) | of which replay in the backend |`);
  console.log("|---|---|---|---|---|");
  console.log(`| ${row.entries.toLocaleString("en")} | ${row.activePath.toLocaleString("en")} | ${row.firstResultMs} ms | ${row.updateMs} ms | ${row.replayMs} ms |`);
  console.log(`\nruns: update ${row.updateRuns.join(", ")} ms; replay ${row.replayRuns.join(", ")} ms`);
  testInfo.annotations.push({ type: "what-if", description: JSON.stringify(row) });
});
