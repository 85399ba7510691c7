/**
 * Browser mode across a restart of `bonsai serve` on the same data folder: the token (kept 0600 in
 * the folder) and the port stay, so a tab left open reconnects by itself and goes on working.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BonsaiServer, expect, generatedSessionFile, test } from "./explorer-fixtures";

test("an open tab reconnects by itself after serve restarts", async ({ page }, testInfo) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-e2e-restart-"));
  const server = new BonsaiServer(dataDir);
  try {
    await server.start();
    const firstUrl = server.url;
    expect(fs.statSync(path.join(dataDir, "serve.json")).mode & 0o777).toBe(0o600);
    await page.goto(firstUrl);
    const file = await generatedSessionFile(testInfo, "Restart fixture", { entries: 60, seed: 81 });
    await page.getByTestId("import-input").setInputFiles(file);
    await expect(page.getByTestId("session-item").filter({ hasText: "Restart fixture" })).toBeVisible();

    await server.stop();
    await expect(page.getByRole("status").filter({ hasText: "reconnecting" })).toBeVisible();
    await server.restart();
    expect(server.url).toBe(firstUrl);
    // no reload: the same page reconnects and works again
    await expect(page.getByRole("status").filter({ hasText: "reconnecting" })).toBeHidden({ timeout: 30_000 });
    await page.getByTestId("session-item").filter({ hasText: "Restart fixture" }).click();
    await expect(page.locator(".react-flow__node").first()).toBeVisible();
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
