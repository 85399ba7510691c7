/**
 * The tree at every size and width (issue 32, point 7), measured with bounding boxes and the
 * overview canvas's own pixels:
 * - at 1024 px the tree pane keeps at least half the window (the session list is a drawer, the
 *   side panel about a third, the map folded), and the map beside it covers no node;
 * - Fit puts the whole tree inside the pane, 100,000 entries included, labels and all;
 * - wheel and pinch zoom over the overview keep what is under the pointer under it, and zooming
 *   out at the pane's edge never leaves a blank canvas.
 * Screenshots at 1024 and 1400 px, light and dark, go to .test-results/tree-widths.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { REPO_ROOT } from "../support/paths";
import { expect, generatedSessionFile, setTheme, test } from "./explorer-fixtures";

const SHOTS = path.join(REPO_ROOT, ".test-results/tree-widths");

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  if (!b) throw new Error("not laid out");
  return b;
}

const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: Box, outer: Box, slack = 0.5) =>
  a.x >= outer.x - slack && a.y >= outer.y - slack && a.x + a.width <= outer.x + outer.width + slack && a.y + a.height <= outer.y + outer.height + slack;

async function shots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  for (const theme of ["light", "dark"] as const) {
    await setTheme(page, theme);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}-${theme}.png`) });
  }
}

/** The box of the overview canvas's painted pixels, in page px (null when nothing is painted). */
async function paintedBox(page: Page): Promise<Box | null> {
  return page.getByTestId("tree-overview").locator("canvas").evaluate((canvas: HTMLCanvasElement) => {
    const ctx = canvas.getContext("2d");
    if (!ctx) return null;
    const { width, height } = canvas;
    const data = ctx.getImageData(0, 0, width, height).data;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        if ((data[(y * width + x) * 4 + 3] as number) > 0) {
          x0 = Math.min(x0, x);
          x1 = Math.max(x1, x);
          y0 = Math.min(y0, y);
          y1 = Math.max(y1, y);
        }
    if (x0 === Infinity) return null;
    const rect = canvas.getBoundingClientRect();
    const k = rect.width / width;
    return { x: rect.left + x0 * k, y: rect.top + y0 * k, width: (x1 - x0 + 1) * k, height: (y1 - y0 + 1) * k };
  });
}

/** Whether the overview canvas has paint at a page point (within `r` px). */
async function paintedAt(page: Page, x: number, y: number, r = 2): Promise<boolean> {
  return page.getByTestId("tree-overview").locator("canvas").evaluate(
    (canvas: HTMLCanvasElement, p) => {
      const rect = canvas.getBoundingClientRect();
      const k = canvas.width / rect.width;
      const d = canvas.getContext("2d")!.getImageData(Math.round((p.x - rect.left - p.r) * k), Math.round((p.y - rect.top - p.r) * k), Math.ceil(2 * p.r * k) + 1, Math.ceil(2 * p.r * k) + 1).data;
      for (let i = 3; i < d.length; i += 4) if ((d[i] as number) > 0) return true;
      return false;
    },
    { x, y, r },
  );
}

/** The canvas's zoom, as React Flow applies it. */
async function zoomOf(page: Page): Promise<number> {
  const transform = await page.locator(".react-flow__viewport").evaluate((el) => (el as HTMLElement).style.transform);
  return Number(/scale\(([\d.e-]+)\)/u.exec(transform)?.[1]);
}

/**
 * No node the tree shows (a node's part inside the tree pane: React Flow clips the rest) meets the
 * map, and what is drawn at the middle of each is the node, not the map.
 */
async function expectNodesClear(page: Page): Promise<number> {
  const pane = await box(page.getByTestId("tree-canvas"));
  const map = await box(page.getByTestId("tree-minimap"));
  expect(intersects(pane, map)).toBe(false);
  const nodes = await page.locator(".react-flow__node").evaluateAll((els, p) => {
    const out: Array<{ x: number; y: number; width: number; height: number; top: string }> = [];
    for (const el of els) {
      const r = el.getBoundingClientRect();
      const x = Math.max(r.left, p.x);
      const y = Math.max(r.top, p.y);
      const width = Math.min(r.right, p.x + p.width) - x;
      const height = Math.min(r.bottom, p.y + p.height) - y;
      if (width <= 0 || height <= 0) continue;
      const top = document.elementFromPoint(x + width / 2, y + height / 2);
      out.push({ x, y, width, height, top: top?.closest('[data-testid="tree-minimap"]') ? "map" : "tree" });
    }
    return out;
  }, pane);
  for (const n of nodes) {
    expect(intersects(n, map), `the node at ${n.x},${n.y} meets the map`).toBe(false);
    expect(n.top, `the node at ${n.x},${n.y} is under the map`).toBe("tree");
  }
  return nodes.length;
}

/** Leaf, then the end of its 200 ms glide: nodes are drawn in the pane again and the viewport stands still. */
async function zoomToLeaf(page: Page): Promise<void> {
  await page.getByTestId("zoom-leaf").click();
  const pane = await box(page.getByTestId("tree-canvas"));
  const drawnInPane = () =>
    page.locator(".react-flow__node").evaluateAll(
      (els, p) => els.filter((el) => { const r = el.getBoundingClientRect(); return r.right > p.x && r.left < p.x + p.width && r.bottom > p.y && r.top < p.y + p.height; }).length,
      pane,
    );
  const transform = () => page.locator(".react-flow__viewport").getAttribute("style");
  await expect.poll(drawnInPane, { timeout: 10_000 }).toBeGreaterThan(0);
  let before = await transform();
  await expect.poll(async () => { const now = await transform(); const still = now === before; before = now; return still; }, { timeout: 10_000, intervals: [250] }).toBe(true);
}

/** Imports a session file by its path on the host (no upload: large files) and opens it. */
async function openImported(page: Page, bonsai: { call<T>(method: string, input: unknown): Promise<T> }, file: string, title: string): Promise<void> {
  const imported = await bonsai.call<{ results: Array<{ ok: boolean; error: string | null }> }>("importSessions", { paths: [file] });
  expect(imported.results[0]?.ok, imported.results[0]?.error ?? "").toBe(true);
  await page.reload();
  await page.getByTestId("session-item").filter({ hasText: title }).click();
  await expect(page.locator(".react-flow__node").first()).toBeVisible({ timeout: 120_000 });
}

test("at 1024 px the tree keeps at least half the window: the list is a drawer, the map folds and never covers a node", async ({ app: page, bonsai }, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  const file = await generatedSessionFile(testInfo, "Widths fixture", { entries: 400, seed: 32, compactionInterval: 120, branchProbability: 0.25 }, undefined, bonsai.sessionsDir);
  await openImported(page, bonsai, file, "Widths fixture");

  // the session list made way: a drawer behind a header button
  await expect(page.getByTestId("sessions-pane")).toHaveCount(0);
  const tree = await box(page.getByTestId("tree-canvas"));
  expect(tree.width).toBeGreaterThanOrEqual(1024 / 2);
  testInfo.annotations.push({ type: "tree pane width at 1024 px", description: String(Math.round(tree.width)) });
  // every tab of the side panel is whole inside it (they wrap rather than scroll out of sight)
  const side = await box(page.getByTestId("side-panel"));
  for (const name of ["inspect", "context", "compact", "prune", "amnesia"]) expect(inside(await box(page.getByTestId(`tab-${name}`)), side), `the ${name} tab is whole`).toBe(true);
  // the map starts folded in a narrow window; unfolded it stands beside the tree
  await expect(page.getByTestId("minimap-toggle")).toHaveAttribute("aria-expanded", "false");
  await page.getByTestId("zoom-fit").click();
  await shots(page, "tree");
  await page.getByTestId("minimap-toggle").click();
  await expect(page.getByTestId("minimap-toggle")).toHaveAttribute("aria-expanded", "true");
  expect((await box(page.getByTestId("tree-canvas"))).width).toBeGreaterThanOrEqual(1024 / 2);
  await zoomToLeaf(page);
  expect(await expectNodesClear(page)).toBeGreaterThan(0);
  await shots(page, "tree-map");

  // the drawer opens over the session and closes with Escape or a click beside it
  await page.getByTestId("sessions-drawer-toggle").click();
  const drawer = page.getByTestId("sessions-pane");
  await expect(drawer).toHaveAttribute("data-drawer", "true");
  await expect(drawer.getByTestId("session-item").filter({ hasText: "Widths fixture" })).toBeVisible();
  await shots(page, "drawer");
  await drawer.getByTestId("session-item").first().focus();
  await page.keyboard.press("Escape");
  await expect(drawer).toHaveCount(0);
  await page.getByTestId("sessions-drawer-toggle").click();
  await page.getByTestId("sessions-drawer-scrim").click({ position: { x: 900, y: 300 } });
  await expect(drawer).toHaveCount(0);

  // a wide window: the list is back beside the tree, the map unfolded by default, still clear of every node
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect(page.getByTestId("sessions-pane")).toHaveAttribute("data-drawer", "false");
  await expect(page.getByTestId("sessions-drawer-toggle")).toHaveCount(0);
  await expect(page.getByTestId("minimap-toggle")).toHaveAttribute("aria-expanded", "true");
  await zoomToLeaf(page);
  expect(await expectNodesClear(page)).toBeGreaterThan(0);
  await shots(page, "tree-map");
});

test("Fit on 100,000 entries puts the whole overview inside the pane, labels included, at 1400 and 1024 px", async ({ app: page, bonsai }, testInfo) => {
  test.setTimeout(400_000);
  const file = await generatedSessionFile(testInfo, "Widths 100k", { entries: 100_000, seed: 100, contentScale: 0.25 }, undefined, bonsai.sessionsDir);
  await openImported(page, bonsai, file, "Widths 100k");
  for (const width of [1400, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    await page.getByTestId("zoom-fit").click();
    const overview = page.getByTestId("tree-overview");
    await expect(overview).toBeVisible();
    const pane = await box(page.getByTestId("tree-canvas"));
    // the painted tree (bars, bands, marks) stands inside the pane, clear of its edges
    await expect.poll(async () => (await paintedBox(page)) !== null).toBe(true);
    const painted = (await paintedBox(page))!;
    expect(inside(painted, { x: pane.x + 1, y: pane.y + 1, width: pane.width - 2, height: pane.height - 2 }), `painted ${JSON.stringify(painted)} in pane ${JSON.stringify(pane)}`).toBe(true);
    // and fills the height: Fit fits, it does not shrink the tree into a corner
    expect(painted.height).toBeGreaterThan(pane.height * 0.8);
    // every compaction label and the leaf label are whole inside the pane
    const labels = await page.locator('[data-testid="compaction-band"], [data-testid="overview-leaf"]').all();
    expect(labels.length).toBeGreaterThan(10);
    for (const label of labels) {
      const b = await box(label);
      expect(inside(b, pane), `label "${await label.textContent()}" at ${JSON.stringify(b)} in pane ${JSON.stringify(pane)}`).toBe(true);
      // and shows its text whole (never cut by its own width)
      expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    // the colour key covers no bar
    const key = await box(page.getByTestId("overview-key"));
    expect(intersects(key, painted), `key ${JSON.stringify(key)} over the tree ${JSON.stringify(painted)}`).toBe(false);
    testInfo.annotations.push({ type: `overview lanes, painted box at ${width} px`, description: `${await overview.getAttribute("data-lanes")} lanes; ${Math.round(painted.width)}x${Math.round(painted.height)} in ${Math.round(pane.width)}x${Math.round(pane.height)}` });
    await shots(page, "fit-100k");
  }
});

test("wheel and pinch zoom over the overview keep the bar under the pointer under it; zooming out at the edge never blanks the canvas", async ({ app: page, bonsai }, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  const file = await generatedSessionFile(testInfo, "Zoom fixture", { entries: 4000, seed: 7, compactionInterval: 600, branchProbability: 0.2, contentScale: 0.25 }, undefined, bonsai.sessionsDir);
  await openImported(page, bonsai, file, "Zoom fixture");
  await page.getByTestId("zoom-fit").click();
  await expect(page.getByTestId("tree-overview")).toBeVisible();
  const pane = await box(page.getByTestId("tree-canvas"));
  const fitZoom = await zoomOf(page);

  // zoom in at the middle of the column until rows are a few px apart (still the overview)
  const painted = (await paintedBox(page))!;
  const cx = painted.x + painted.width / 2;
  const cy = pane.y + pane.height / 2;
  await page.mouse.move(cx, cy);
  while ((await zoomOf(page)) < 0.06) await page.mouse.wheel(0, -300);
  await expect(page.getByTestId("tree-overview")).toBeVisible();

  // the middle of a message's bar near the middle of the pane, its node selected by a click
  const bar = await page.getByTestId("tree-overview").locator("canvas").evaluate((canvas: HTMLCanvasElement, mid) => {
    const rect = canvas.getBoundingClientRect();
    const k = canvas.width / rect.width;
    const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
    // the bar colours of user, assistant and tool result messages (drawn at 45-100 % opacity)
    const colours = [
      [0x25, 0x63, 0xeb],
      [0x7c, 0x3a, 0xed],
      [0x0f, 0x76, 0x6e],
    ];
    const isBar = (x: number, y: number) => {
      const o = (y * canvas.width + x) * 4;
      return (data[o + 3] as number) >= 100 && colours.some((c) => c.every((v, i) => Math.abs((data[o + i] as number) - v) <= 4));
    };
    const y0 = Math.round((mid - rect.top) * k);
    for (let d = 0; d < canvas.height / 2; d++)
      for (const y of [y0 - d, y0 + d])
        for (let x = 0; x < canvas.width; x++) {
          if (y < 0 || y >= canvas.height || !isBar(x, y)) continue;
          let x1 = x;
          while (isBar(x1 + 1, y)) x1++;
          let top = y;
          let bottom = y;
          const cx = Math.round((x + x1) / 2);
          while (isBar(cx, top - 1)) top--;
          while (isBar(cx, bottom + 1)) bottom++;
          return { x: rect.left + (cx + 0.5) / k, y: rect.top + ((top + bottom) / 2 + 0.5) / k };
        }
    return null;
  }, cy);
  expect(bar, "a message's bar near the middle of the pane").not.toBeNull();
  const at = bar!;
  await page.mouse.click(at.x, at.y);
  const status = page.getByTestId("tree-selection-status");
  await expect(status).not.toHaveText("");
  const selected = await status.textContent();

  // wheel in and out, then pinch (a wheel with Ctrl) in and out, all at that point
  const steps: Array<[number, boolean]> = [
    [-200, false],
    [-200, false],
    [300, false],
    [-60, true],
    [80, true],
  ];
  for (const [deltaY, pinch] of steps) {
    const before = await zoomOf(page);
    await page.mouse.move(at.x, at.y);
    if (pinch) await page.keyboard.down("Control");
    await page.mouse.wheel(0, deltaY);
    if (pinch) await page.keyboard.up("Control");
    await expect.poll(() => zoomOf(page)).not.toBe(before);
    expect(await paintedAt(page, at.x, at.y), `the bar left the pointer after a ${pinch ? "pinch" : "wheel"} of ${deltaY}`).toBe(true);
  }
  // (moved away first: a second click at the same spot would be a double click, which zooms to the node)
  await page.mouse.move(at.x + 40, at.y + 40);
  await page.mouse.click(at.x, at.y);
  await expect(status).toHaveText(selected ?? "");

  // zooming far out at the pane's bottom right corner: the tree stays in view
  const corner = { x: pane.x + pane.width - 3, y: pane.y + pane.height - 3 };
  await page.mouse.move(corner.x, corner.y);
  for (let i = 0; i < 25; i++) await page.mouse.wheel(0, 400);
  expect(await zoomOf(page)).toBeLessThan(fitZoom);
  const after = await paintedBox(page);
  expect(after, "the canvas went blank").not.toBeNull();
  expect(intersects(after!, pane)).toBe(true);
  // and a drag that throws the tree out of the pane brings it back to the edge
  await page.getByTestId("zoom-fit").click();
  // (up and left, clear of the colour key: the tree, 20-60 % of the pane's height, leaves it whole)
  await page.mouse.move(pane.x + pane.width - 10, pane.y + pane.height - 10);
  await page.mouse.down();
  await page.mouse.move(pane.x + 250, pane.y + 10, { steps: 8 });
  await page.mouse.up();
  // (at least part of it right of the colour key, which stands over the pane's top left)
  const key = await box(page.getByTestId("overview-key"));
  const clear = { x: key.x + key.width, y: pane.y, width: pane.x + pane.width - (key.x + key.width), height: pane.height };
  await expect.poll(async () => {
    const b = await paintedBox(page);
    return b !== null && intersects(b, clear);
  }).toBe(true);
  await shots(page, "zoomed");
});
