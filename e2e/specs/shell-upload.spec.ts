/**
 * Uploads stream: a picked file of tens of MB travels to the backend in chunks, with progress and
 * a Cancel button, while the page stays responsive (no long task over 200 ms during the upload,
 * measured in the page with a PerformanceObserver); a cancelled upload and a file that is not a
 * session leave nothing on disk; Cancel during the backend's read stores nothing. Where Cancel
 * must come midway, the spec holds the operation unfinished for real (the backend's answers to the
 * upload's chunks held back on the page's WebSocket; the database's write lock held while the
 * backend imports), whatever the machine's speed. The files are generated here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "@playwright/test";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import { holdAnswers, watchAnswers } from "../support/call-answers";
import { test, expect } from "../support/fixtures";
import { holdWriteLock, storedCounts } from "../support/store-lock";

test.describe.configure({ timeout: 180_000 });

const MB = 1024 * 1024;

/** files below <data dir>/uploads (partial ones included) */
function uploadedFiles(dataDir: string): string[] {
  const dir = path.join(dataDir, "uploads");
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((d) => d.isFile()).map((d) => d.name);
}

/** In the page: long tasks, and when the upload phase started and ended (from the progress box). */
async function watchUpload(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[]; __upload: { start: number; end: number; maxShown: number } };
    w.__longTasks = [];
    w.__upload = { start: NaN, end: NaN, maxShown: 0 };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
    new MutationObserver(() => {
      const box = document.querySelector('[data-testid="import-progress"]');
      const uploading = box?.getAttribute("data-phase") === "uploading";
      if (uploading && Number.isNaN(w.__upload.start)) w.__upload.start = performance.now();
      if (!uploading && !Number.isNaN(w.__upload.start) && Number.isNaN(w.__upload.end)) w.__upload.end = performance.now();
      const pct = Number(box?.querySelector("progress")?.getAttribute("value") ?? 0);
      if (uploading && pct > w.__upload.maxShown) w.__upload.maxShown = pct;
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

test("a 40 MB session uploads in chunks with progress; the page stays responsive; then it is imported", async ({ app: page, bonsai }, testInfo) => {
  const file = testInfo.outputPath("big-upload.jsonl");
  const session = generateSession({ entries: 6_000, seed: 5, contentScale: 6, compactionInterval: 0 });
  session.header.title = "Big upload";
  await writeSessionJsonl(file, session);
  const size = fs.statSync(file).size;
  expect(size).toBeGreaterThan(30 * MB);
  testInfo.annotations.push({ type: "file size", description: `${(size / MB).toFixed(1)} MB` });

  await watchUpload(page);
  await page.reload();
  await expect(page.getByTestId("import-button")).toBeVisible();
  await page.getByTestId("import-input").setInputFiles(file);
  const progress = page.getByTestId("import-progress");
  await expect(progress).toHaveAttribute("data-phase", "uploading");
  await expect(page.getByTestId("upload-bytes")).toContainText(`of ${(size / 1e6).toFixed(1)} MB`);
  await expect(page.getByTestId("import-cancel")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("uploading-light.png") });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: testInfo.outputPath("uploading-dark.png") });
  await expect(page.getByTestId("import-result")).toContainText("Imported 1 of 1 file", { timeout: 150_000 });
  await expect(page.getByTestId("session-item").filter({ hasText: "Big upload" })).toBeVisible();

  const measured = await page.evaluate(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[]; __upload: { start: number; end: number; maxShown: number } };
    return { tasks: w.__longTasks, upload: w.__upload };
  });
  const during = measured.tasks.filter((t) => t.start + t.duration >= measured.upload.start && t.start <= measured.upload.end);
  const seconds = (measured.upload.end - measured.upload.start) / 1000;
  testInfo.annotations.push({ type: "upload", description: `${seconds.toFixed(1)} s; long tasks during it: ${JSON.stringify(during.map((t) => Math.round(t.duration)))}` });
  fs.writeFileSync(testInfo.outputPath("upload-measure.json"), JSON.stringify({ size, seconds, during, all: measured.tasks }, null, 2));
  expect(measured.upload.end).toBeGreaterThan(measured.upload.start);
  expect(measured.upload.maxShown, "the progress bar moved").toBeGreaterThan(0);
  expect(during.filter((t) => t.duration > 200), "long tasks over 200 ms while uploading").toEqual([]);
  // the upload is the session's source now (one file, named by its content)
  expect(uploadedFiles(bonsai.dataDir)).toEqual([expect.stringMatching(/^[0-9a-f]{16}-big-upload\.jsonl$/)]);
});

test("Cancel stops an upload: nothing is imported and its bytes are deleted", async ({ app: page, bonsai, target }, testInfo) => {
  test.skip(target === "electron", "the backend's answers are held on the page's WebSocket (browser mode)");
  const file = testInfo.outputPath("huge.jsonl");
  fs.writeFileSync(file, Buffer.alloc(20 * MB, "x"));
  // after 8 chunks (2 MB) the backend's answers to uploadChunk are held back: the page, with its
  // chunks in flight unanswered, cannot finish the upload before Cancel is clicked (on any machine)
  const answers = await holdAnswers(page, "uploadChunk", 8);
  await page.reload();
  await expect(page.getByTestId("import-button")).toBeVisible();
  await page.getByTestId("import-input").setInputFiles(file);
  await expect(page.getByTestId("import-progress")).toHaveAttribute("data-phase", "uploading");
  await expect.poll(() => answers.held()).toBeGreaterThan(0);
  await expect(page.getByTestId("upload-bytes")).toHaveText(/^2\.1 of 21\.0 MB/u);
  await page.getByTestId("import-cancel").click();
  answers.release();
  await expect(page.getByText("Upload cancelled: nothing was imported.")).toBeVisible();
  await expect(page.getByTestId("import-progress")).toHaveCount(0);
  await expect.poll(() => uploadedFiles(bonsai.dataDir)).toEqual([]);
  await expect(page.getByTestId("session-list-empty")).toBeVisible();
  expect(storedCounts(path.join(bonsai.dataDir, "bonsai.db"))).toEqual({ sessions: 0, entries: 0 });
  // the connection is fine afterwards: a real session still imports
  const session = testInfo.outputPath("after-cancel.jsonl");
  await writeSessionJsonl(session, generateSession({ entries: 40, seed: 9 }));
  await page.getByTestId("import-input").setInputFiles(session);
  await expect(page.getByTestId("import-result")).toContainText("Imported 1 of 1 file");
});

test("Cancel while the backend reads an uploaded session: nothing of it is stored", async ({ app: page, bonsai, target }, testInfo) => {
  test.skip(target === "electron", "the backend's answer to Cancel is read off the page's WebSocket (browser mode)");
  const file = testInfo.outputPath("read-then-cancel.jsonl");
  await writeSessionJsonl(file, generateSession({ entries: 10_000, seed: 6 }));
  const db = path.join(bonsai.dataDir, "bonsai.db");
  const answers = watchAnswers(page);
  await page.reload();
  await expect(page.getByTestId("import-button")).toBeVisible();
  // the database's write lock, held here on a connection of this process: the backend's import
  // waits for it, so it is still running, with nothing stored, when Cancel is clicked (on any
  // machine); the store waits BUSY_TIMEOUT_MS (5 s) for it, far more than the steps below take
  const lock = holdWriteLock(db);
  const progress = page.getByTestId("import-progress");
  try {
    await page.getByTestId("import-input").setInputFiles(file);
    // at once when the phase changes (polled every frame): the import's wait for the lock has begun
    await page.waitForFunction(() => document.querySelector('[data-testid="import-progress"]')?.getAttribute("data-phase") === "importing", undefined, {
      polling: "raf",
      timeout: 120_000,
    });
    const importing = Date.now();
    const answer = answers.next<{ cancelled: boolean }>("cancelImport");
    await page.getByTestId("import-cancel").click();
    // the backend stopped a running import call (it answers false when none runs)
    expect(await answer).toEqual({ cancelled: true });
    await expect(progress).toHaveAttribute("data-phase", "importing");
    await page.screenshot({ path: testInfo.outputPath("importing-light.png") });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: testInfo.outputPath("importing-dark.png") });
    const held = Date.now() - importing;
    testInfo.annotations.push({ type: "lock", description: `held ${held} ms after the import began waiting for it` });
  } finally {
    lock.release();
  }
  // now the import gets the lock, reads the file and sees the cancel before it commits
  await expect(progress).toHaveCount(0, { timeout: 60_000 });
  const result = page.getByTestId("import-result");
  await expect(result).toContainText("Imported 0 of 1 file");
  await expect(result.locator(".error")).toContainText("import cancelled: nothing of this file was stored");
  await expect(page.getByTestId("session-list-empty")).toBeVisible();
  expect(storedCounts(db)).toEqual({ sessions: 0, entries: 0 });
  await expect.poll(() => uploadedFiles(bonsai.dataDir)).toEqual([]);
});

test("an upload that is not a session is reported and deleted", async ({ app: page, bonsai }, testInfo) => {
  const file = testInfo.outputPath("notes.jsonl");
  fs.writeFileSync(file, "root:x:0:0:secret-line:/root:/bin/bash\n");
  await page.getByTestId("import-input").setInputFiles(file);
  const result = page.getByTestId("import-result");
  await expect(result).toContainText("Imported 0 of 1 file");
  await expect(result.locator(".error")).toHaveText("notes.jsonl: not a session file: it is not JSON lines (its first line is not JSON); Bonsai reads pi / oh-my-pi sessions, Claude Code transcripts and Codex rollouts");
  await expect(result).not.toContainText("secret-line");
  expect(uploadedFiles(bonsai.dataDir)).toEqual([]);
});
