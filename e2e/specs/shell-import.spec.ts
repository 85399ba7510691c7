/**
 * The whole path from a file to pixels: import a real pi session through the UI, see it in the
 * list, open it, and see its tree with the full active path.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "@playwright/test";
import { test, expect } from "../support/fixtures";
import { sharedFixture } from "../support/paths";

const fixture = sharedFixture("before-compaction.jsonl");

/** The fixture is a linear v1 session: every entry line is on the active path. */
function entryLines(file: string): number {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "").length - 1;
}

test.describe("shell: import and open a session", () => {
  test.skip(!fixture, "../shared/fixtures/before-compaction.jsonl is not present next to the checkout");

  test("import through the file input, list, open, active path", async ({ app }, testInfo) => {
    const entries = entryLines(fixture!);
    await expect(app.getByTestId("session-list-empty")).toBeVisible();

    await app.getByTestId("import-input").setInputFiles(fixture!);
    await expect(app.getByTestId("import-result")).toContainText("Imported 1 of 1 file");

    const item = app.getByTestId("session-item");
    await expect(item).toHaveCount(1);
    await expect(item.getByTestId("session-entry-count")).toHaveText(entries.toLocaleString());
    // listed under its project folder
    await expect(app.getByTestId("session-group")).toHaveAttribute("data-folder", "/Users/badlogic/workspaces/pi-mono");

    await item.click();
    await expect(app.getByTestId("session-view")).toBeVisible();
    const status = app.getByTestId("tree-status");
    await expect(status).toHaveAttribute("data-active-path", String(entries));
    await expect(status).toHaveAttribute("data-entry-count", String(entries));
    // the tree is drawn: React Flow nodes on screen, some of them on the active path
    await expect(app.locator(".react-flow__node").first()).toBeVisible();
    await expect(app.locator('.react-flow__node [data-onpath="true"], .react-flow__node [data-active="true"]').first()).toBeVisible();

    await app.screenshot({ path: testInfo.outputPath("session-tree.png") });
  });

  test("drag and drop of a .jsonl file imports it", async ({ app, target }, testInfo) => {
    test.skip(target === "electron", "synthetic drops carry no file paths in Electron; the file input covers it there");
    const content = fs.readFileSync(fixture!, "utf8");
    const dataTransfer = await app.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], "dropped.jsonl", { type: "application/x-ndjson" }));
      return dt;
    }, content);
    await app.locator(".app").dispatchEvent("dragover", { dataTransfer });
    await expect(app.getByText("Drop .jsonl session files to import them")).toBeVisible();
    await app.locator(".app").dispatchEvent("drop", { dataTransfer });
    await expect(app.getByTestId("import-result")).toContainText("Imported 1 of 1 file");
    await expect(app.getByTestId("session-item")).toHaveCount(1);
    // browser mode has no path for a dropped file: it says the import is a copy
    await expect(app.getByText(/imported as a copy, so Bonsai's changes do not reach the original file/)).toBeVisible();
    await app.screenshot({ path: testInfo.outputPath("dropped-copy.png") });
  });

  test("a file that is not a session is reported, and nothing breaks", async ({ app }, testInfo) => {
    const bad = testInfo.outputPath("notes.jsonl");
    fs.mkdirSync(testInfo.outputDir, { recursive: true });
    fs.writeFileSync(bad, "this is not json\n");
    await app.getByTestId("import-input").setInputFiles(bad);
    await expect(app.getByTestId("import-result")).toContainText("Imported 0 of 1 file");
    await expect(app.getByTestId("import-result").locator(".error")).toContainText("notes.jsonl");
    await expect(app.getByTestId("session-list-empty")).toBeVisible();
  });
});

/**
 * The desktop app's drop, in the browser: the page is given the preload's one extra function
 * (window.bonsaiFiles.pathForFile, which Electron answers with webUtils) before it loads, so a drop
 * goes the desktop way against the real backend of `bonsai serve`.
 */
test.describe("shell: a drop with paths (the desktop preload's pathForFile)", () => {
  test.skip(!fixture, "../shared/fixtures/before-compaction.jsonl is not present next to the checkout");

  async function dropWithPath(app: Page, file: string): Promise<void> {
    await app.addInitScript((p) => {
      (window as unknown as { bonsaiFiles: unknown }).bonsaiFiles = { pathForFile: () => p };
    }, file);
    await app.reload();
    await expect(app.getByTestId("import-button")).toBeVisible();
    const dataTransfer = await app.evaluateHandle((name) => {
      const dt = new DataTransfer();
      dt.items.add(new File(["{}\n"], name));
      return dt;
    }, path.basename(file));
    await app.locator(".app").dispatchEvent("drop", { dataTransfer });
  }

  test("a file inside the session folders is imported in place", async ({ app, bonsai, target }) => {
    test.skip(target === "electron", "the page's own preload answers in Electron; synthetic drops carry no path there");
    const inPlace = path.join(bonsai.sessionsDir, "dropped.jsonl");
    fs.copyFileSync(fixture!, inPlace);
    await dropWithPath(app, inPlace);
    await expect(app.getByTestId("import-result")).toContainText("Imported 1 of 1 file");
    const { sessions } = await bonsai.call<{ sessions: { sourcePath: string | null }[] }>("listSessions");
    expect(sessions.map((s) => s.sourcePath)).toEqual([fs.realpathSync(inPlace)]);
    await expect(app.getByText(/imported as a copy/)).toHaveCount(0);
  });

  test("a file outside them is uploaded as a copy, and the notice says so", async ({ app, bonsai, target }, testInfo) => {
    test.skip(target === "electron", "the page's own preload answers in Electron; synthetic drops carry no path there");
    fs.mkdirSync(testInfo.outputDir, { recursive: true });
    const outside = testInfo.outputPath("elsewhere.jsonl");
    fs.copyFileSync(fixture!, outside);
    await dropWithPath(app, outside);
    await expect(app.getByText(/lies outside the session folders .*imported as a copy/)).toBeVisible();
    // the page's File stands for the dropped one: its bytes are what the copy holds
    await expect(app.getByTestId("import-result")).toContainText("of 1 file");
    const { sessions } = await bonsai.call<{ sessions: { sourcePath: string | null }[] }>("listSessions");
    expect(sessions.every((s) => s.sourcePath !== outside)).toBe(true);
  });
});
