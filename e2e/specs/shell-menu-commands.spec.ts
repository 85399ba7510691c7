/**
 * Every application-menu command, sent to the page through its own event channel (browser mode:
 * an event frame on the page's WebSocket, as `bonsai serve` pushes events; the desktop's preload
 * delivers the same menuCommand event to the same subscription in App.tsx), and what the page does
 * with each: with no session open, Export and the zooms say why they cannot run; with one open, they
 * export it and zoom its tree.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page, WebSocketRoute } from "@playwright/test";
import { test, expect } from "../support/fixtures";
import { SHARED_FIXTURES } from "../support/paths";

const fixture = path.join(SHARED_FIXTURES, "real/pi/raquezha__pi.dev__96_2b1009dcd7_2_full.jsonl");

/** The page's WebSocket, routed through the test (every frame still goes both ways), once reloaded. */
async function routedPage(page: Page): Promise<() => WebSocketRoute> {
  let socket: WebSocketRoute | null = null;
  await page.routeWebSocket(/\/ws\b/, (ws) => {
    ws.connectToServer();
    socket = ws;
  });
  await page.reload();
  await expect(page.getByTestId("import-button")).toBeVisible();
  await expect.poll(() => socket !== null).toBe(true);
  return () => socket!;
}

test("each menu command reaches the page, which runs it or says why it cannot", async ({ app: page, bonsai, target }, testInfo) => {
  test.skip(target === "electron", "Electron's menu sends these over its IPC (the host test clicks each item in main)");
  const socket = await routedPage(page);
  const menu = (command: string) => socket().send(JSON.stringify({ t: "event", event: "menuCommand", payload: { command } }));
  const notice = (text: string) => page.getByTestId("notification").filter({ hasText: text });

  // no session open: Export and the zooms say why, and nothing else happens
  menu("export");
  await expect(notice("Open a session first: Export saves the open session.")).toBeVisible();
  menu("zoomToFit");
  await expect(notice("Open a session first: Zoom Tree to Fit")).toBeVisible();
  menu("zoomToLeaf");
  await expect(notice("Open a session first: Zoom to Active Leaf")).toBeVisible();
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 1024, height: 720 });
    await page.screenshot({ path: testInfo.outputPath(`menu-no-session-${colorScheme}-1024.png`) });
  }

  // Import… asks for files
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), Promise.resolve(menu("import"))]);
  expect(chooser.isMultiple()).toBe(true);

  menu("preferences");
  await expect(page.getByTestId("preferences")).toBeVisible();
  await page.getByTestId("preferences-close").click();
  await expect(page.getByTestId("preferences")).toHaveCount(0);

  menu("search");
  await expect(page.getByTestId("search-panel")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("search-panel")).toHaveCount(0);

  // a session open: the zooms act on its tree, Export downloads it
  const copy = path.join(bonsai.sessionsDir, path.basename(fixture));
  fs.copyFileSync(fixture, copy);
  await bonsai.call("importSessions", { paths: [copy] });
  await page.getByTestId("session-item").click();
  await expect(page.getByTestId("tree-canvas")).toBeVisible();

  menu("zoomToLeaf");
  await expect(page.locator('[data-leaf="true"]')).toHaveAttribute("data-selected", "true");

  await page.getByTestId("tree-canvas").focus();
  await page.keyboard.press("t");
  await expect(page.getByTestId("transcript")).toBeVisible();
  menu("zoomToFit");
  await expect(page.getByTestId("tree-canvas")).toBeVisible();
  await expect(page.getByTestId("transcript")).toHaveCount(0);

  const [download] = await Promise.all([page.waitForEvent("download"), Promise.resolve(menu("export"))]);
  const file = testInfo.outputPath("menu-export.jsonl");
  await download.saveAs(file);
  const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "").length;
  expect(lines(fs.readFileSync(file, "utf8"))).toBe(lines(fs.readFileSync(fixture, "utf8")));

  // a command the page does not know is ignored (no message, no dialog)
  const before = await page.getByTestId("notification").count();
  menu("formatDisk");
  await page.waitForTimeout(300);
  await expect(page.getByTestId("notification")).toHaveCount(before);
});
