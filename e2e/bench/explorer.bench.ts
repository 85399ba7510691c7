/**
 * Explorer benchmark: generated sessions of 10,000 and 100,000 entries (every entry type,
 * branches, compactions), imported by path, then opened in the UI. Reports (median of 3 opens):
 *   open -> first visible tree   measured in the page: from the click event on the session to the
 *                                frame after the one that first held a tree node (two animation
 *                                frames after the node entered the DOM: it has been painted)
 *     of which request           the openSession call as the page sees it: sent -> answer parsed and
 *                                unpacked (backend, transfer, JSON.parse, unpackSkeleton)
 *     of which drawing           the rest: layout (toFlow), React Flow's first frame
 *     first after the import     the first of those opens (the import just read the session)
 *     first after a restart      the backend restarted on the same data folder, the page loaded
 *                                again, the session opened (median of 3 restarts, after the rest):
 *                                the first open of a big session after the app starts
 *   open, as Playwright sees it  click -> Playwright finds the node visible (adds its polling and
 *                                its DevTools round trips; also the cost of DevTools copying every
 *                                WebSocket frame, which a user's browser does not do)
 *   answer                       size of the openSession answer on the WebSocket (packed skeleton)
 *   click -> inspector           measured in the page: from the click event on the leaf node to the
 *                                frame after the inspector showed that whole entry (getEntry)
 *     as Playwright sees it      click -> Playwright finds the inspector showing it (adds its
 *                                polling: 100, 250, 500 ms between checks)
 *   layout                       toFlow in the renderer (from the status bar)
 *   live follow                  an agent appends an entry to the session file (the open session's
 *                                source) until the tree counts it (includes noticing the change:
 *                                fs.watch, or the 500 ms poll)
 *   pan, zoom                    a scripted drag down and up across the tree (nodes mount and
 *                                unmount as they enter and leave the view); wheel zooms out to
 *                                about a third and back in. Frames timed in the page
 *                                (requestAnimationFrame): the longest frame and how many took over
 *                                50 ms (60 fps is 16.7 ms a frame)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { generateSession, median, writeSessionJsonl } from "@bonsai/testkit";
import type { Page } from "@playwright/test";
import { expect, test } from "../support/fixtures";
import { markWhenInspected } from "./inspected-mark";

const SIZES = [10_000, 100_000];
const RUNS = 3;

interface FrameTimes {
  frames: number;
  longestMs: number;
  over50: number;
  p95Ms: number;
}

/** frame lengths (requestAnimationFrame to requestAnimationFrame) in the page while `script` runs */
async function timeFrames(page: Page, script: () => Promise<void>): Promise<FrameTimes> {
  await page.evaluate(() => {
    const times: number[] = [];
    const w = window as unknown as { __frames: { times: number[]; stop: boolean } };
    w.__frames = { times, stop: false };
    const tick = (t: number) => {
      times.push(t);
      if (!w.__frames.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await script();
  const times = await page.evaluate(async () => {
    // two more frames: the last input's frame is painted
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const w = window as unknown as { __frames: { times: number[]; stop: boolean } };
    w.__frames.stop = true;
    return w.__frames.times;
  });
  const lengths = times.slice(1).map((t, i) => t - times[i]!);
  const sorted = [...lengths].sort((a, b) => a - b);
  return {
    frames: lengths.length,
    longestMs: Math.round(sorted.at(-1) ?? 0),
    over50: lengths.filter((l) => l > 50).length,
    p95Ms: Math.round(sorted[Math.floor(sorted.length * 0.95)] ?? 0),
  };
}

/** drags the canvas down and up across the tree (rows scroll in: nodes mount and unmount) */
async function pan(page: Page): Promise<void> {
  const box = (await page.getByTestId("tree-canvas").boundingBox())!;
  const x = box.x + box.width / 2;
  const top = box.y + 60;
  const bottom = box.y + box.height - 60;
  for (const [from, to] of [[top, bottom], [top, bottom], [top, bottom], [bottom, top], [bottom, top], [bottom, top]] as const) {
    await page.mouse.move(x, from);
    await page.mouse.down();
    await page.mouse.move(x + 40, to, { steps: 30 });
    await page.mouse.up();
  }
}

/** zooms out with the wheel (to about a third: still readable nodes, many more of them) and back in */
async function zoom(page: Page): Promise<void> {
  const box = (await page.getByTestId("tree-canvas").boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let k = 0; k < 6; k++) await page.mouse.wheel(0, 120);
  for (let k = 0; k < 6; k++) await page.mouse.wheel(0, -120);
}

/** the last open as the page timed it: click -> tree painted, and the request part of it */
async function openTimedInPage(page: Page): Promise<{ open: number; request: number }> {
  const inPage = await page.evaluate(async () => {
    const bench = (window as unknown as { __bench: { clickAt: number; paintedAt: number } }).__bench;
    while (Number.isNaN(bench.paintedAt)) await new Promise((r) => setTimeout(r, 10));
    const [start, answer] = ["bonsai:open:start", "bonsai:open:answer"].map((m) => performance.getEntriesByName(m).at(-1)?.startTime ?? NaN);
    return { open: bench.paintedAt - bench.clickAt, request: answer! - start! };
  });
  expect(inPage.open, "the click and the painted tree were both seen in the page").toBeGreaterThan(0);
  return inPage;
}

for (const size of SIZES) {
  test(`explorer with ${size.toLocaleString("en")} entries`, async ({ app: page, bonsai }, testInfo) => {
    // in an agents' session folder of the host: the page may import paths there only
    const file = path.join(bonsai.sessionsDir, `bench-${size}.jsonl`);
    const session = generateSession({ entries: size, seed: 100, contentScale: 0.25 });
    session.header.title = `Bench ${size}`;
    await writeSessionJsonl(file, session);
    const importStart = Date.now();
    const imported = await bonsai.call<{ results: Array<{ ok: boolean; sessionId: string | null; error: string | null }> }>("importSessions", { paths: [file] });
    const importMs = Date.now() - importStart;
    expect(imported.results[0]?.ok, imported.results[0]?.error ?? "").toBe(true);
    // in the page: when the session was clicked, and when the first tree node was painted
    await page.addInitScript(() => {
      const bench = { clickAt: NaN, paintedAt: NaN, inspectedAt: NaN };
      (window as unknown as { __bench: typeof bench }).__bench = bench;
      document.addEventListener("click", (e) => void (bench.clickAt = e.timeStamp), true);
      const observer = new MutationObserver(() => {
        if (!document.querySelector(".react-flow__node")) return;
        observer.disconnect();
        requestAnimationFrame(() => requestAnimationFrame(() => void (bench.paintedAt = performance.now())));
      });
      observer.observe(document, { subtree: true, childList: true });
    });
    await page.reload();
    const item = page.getByTestId("session-item").filter({ hasText: `Bench ${size}` });
    await expect(item).toBeVisible();

    // the size of the openSession answer, seen from the WebSocket frames
    let answerBytes = 0;
    page.on("websocket", (ws) => {
      ws.on("framereceived", (f) => {
        const p = String(f.payload);
        if (p.startsWith('{"t":"result"') && p.includes('"session":{') && p.includes('"skeleton"')) answerBytes = Buffer.byteLength(p);
      });
    });
    const request: number[] = [];
    const drawing: number[] = [];
    const open: number[] = [];
    const openSeen: number[] = [];
    const inspect: number[] = [];
    const inspectSeen: number[] = [];
    const layout: number[] = [];
    let flowNodes = 0;
    for (let run = 0; run < RUNS; run++) {
      // open: from the click to the first tree node on screen
      const t0 = Date.now();
      await item.click();
      await page.locator(".react-flow__node").first().waitFor({ state: "visible" });
      const visibleAt = Date.now();
      openSeen.push(visibleAt - t0);
      const inPage = await openTimedInPage(page);
      open.push(inPage.open);
      request.push(inPage.request);
      drawing.push(inPage.open - inPage.request);
      const status = page.getByTestId("tree-status");
      await expect(status).toHaveAttribute("data-entry-count", String(size));
      flowNodes = Number(await status.getAttribute("data-flow-nodes"));
      layout.push(Number(await status.getAttribute("data-layout-ms")));

      // inspector: from the click on the leaf to the inspector showing it
      const leafId = (await status.getAttribute("data-leaf-id")) ?? "";
      const leaf = page.getByTestId(`tree-node-${leafId}`);
      await expect(leaf).toBeVisible();
      // in the page: the frame after the inspector showed the whole entry
      await markWhenInspected(page, leafId);
      const t1 = await page.evaluate(() => performance.now());
      await leaf.click();
      await expect(page.getByTestId("inspector")).toHaveAttribute("data-entry-id", leafId);
      await expect(page.getByTestId("inspector")).toHaveAttribute("data-loaded", "true");
      inspectSeen.push((await page.evaluate(() => performance.now())) - t1);
      inspect.push(
        await page.evaluate(async () => {
          const bench = (window as unknown as { __bench: { clickAt: number; inspectedAt: number } }).__bench;
          while (Number.isNaN(bench.inspectedAt)) await new Promise((r) => setTimeout(r, 10));
          return bench.inspectedAt - bench.clickAt;
        }),
      );

      // navigable: fit the whole tree, walk up with the keyboard
      await page.getByTestId("zoom-fit").click();
      await page.keyboard.press("ArrowUp");
      // fitted, a large tree is the overview (the selection is drawn on its canvas)
      await expect(page.getByTestId("tree-selection-status")).not.toBeEmpty();

      // close it again (open another view) so the next run opens from scratch
      await page.reload();
      await expect(item).toBeVisible();
    }
    // live follow: an agent appends entries to the file while the session is open
    await item.click();
    const status = page.getByTestId("tree-status");
    await expect(status).toHaveAttribute("data-entry-count", String(size));
    // pan and zoom: the tree as it opened (on its leaf), dragged across and zoomed
    await page.locator(".react-flow__node").first().waitFor({ state: "visible" });
    const panFrames = await timeFrames(page, () => pan(page));
    const zoomFrames = await timeFrames(page, () => zoom(page));
    const follow: number[] = [];
    let parentId = session.entries.at(-1)!.id;
    for (let k = 1; k <= RUNS; k++) {
      const id = `f0${String(k).padStart(6, "0")}`;
      const now = Date.now();
      const entry = { type: "message", id, parentId, timestamp: new Date(now).toISOString(), message: { role: "user", content: `follow-up ${k}`, timestamp: now } };
      fs.appendFileSync(file, `${JSON.stringify(entry)}\n`);
      const t = Date.now();
      await expect(status).toHaveAttribute("data-entry-count", String(size + k));
      follow.push(Date.now() - t);
      parentId = id;
    }
    await page.reload();

    // the first open after the app starts: the backend restarted on the same data folder holds
    // nothing of the session yet (what a user meets on the first open of a big session each day)
    const coldOpen: number[] = [];
    const coldRequest: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await bonsai.restart();
      await page.goto(bonsai.url);
      await expect(item).toBeVisible();
      await item.click();
      await page.locator(".react-flow__node").first().waitFor({ state: "visible" });
      const inPage = await openTimedInPage(page);
      coldOpen.push(inPage.open);
      coldRequest.push(inPage.request);
      await expect(status).toHaveAttribute("data-entry-count", String(size + RUNS));
    }

    const result = {
      entries: size,
      fileMb: Math.round(fs.statSync(file).size / 1e5) / 10,
      importMs,
      flowNodes,
      openMs: Math.round(median(open)),
      openSeenByPlaywrightMs: Math.round(median(openSeen)),
      answerKb: Math.round(answerBytes / 1024),
      requestMs: Math.round(median(request)),
      drawingMs: Math.round(median(drawing)),
      inspectorMs: Math.round(median(inspect)),
      inspectorSeenByPlaywrightMs: Math.round(median(inspectSeen)),
      layoutMs: Math.round(median(layout)),
      openRuns: open.map(Math.round),
      openAfterImportMs: Math.round(open[0]!),
      openAfterRestartMs: Math.round(median(coldOpen)),
      requestAfterRestartMs: Math.round(median(coldRequest)),
      openAfterRestartRuns: coldOpen.map(Math.round),
      inspectorRuns: inspect.map(Math.round),
      followMs: Math.round(median(follow)),
      followRuns: follow,
      pan: panFrames,
      zoom: zoomFrames,
    };
    console.log(`explorer bench ${JSON.stringify(result)}`);
    fs.writeFileSync(testInfo.outputPath("result.json"), JSON.stringify(result, null, 2));
    await testInfo.attach("result", { body: JSON.stringify(result, null, 2), contentType: "application/json" });
    await page.getByTestId("session-item").filter({ hasText: `Bench ${size}` }).click();
    await page.locator(".react-flow__node").first().waitFor({ state: "visible" });
    await page.screenshot({ path: testInfo.outputPath(`bench-${size}.png`) });
  });
}
