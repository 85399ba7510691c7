/**
 * Real sessions of every agent (../shared/fixtures/real, read there) through what a user does in
 * the page: import, open, the tree draws, the inspector at the leaf, What the model sees; the
 * context figure is the same in the session list, the inspector, What the model sees and the
 * backend's answer, and it is within the window the page names. Screenshots of each at 1024 px in
 * both themes go to .test-results/real-sessions. BONSAI_E2E_SESSION_FILES (paths joined by ":")
 * walks other session files instead, e.g. the transcripts of a repository's Entire checkpoints.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, sharedFixture } from "../support/paths";
import { expect, leafNode, setTheme, shownNumber, test } from "./explorer-fixtures";

const DEFAULT_FILES = [
  "real/pi/mholtzscher__pi-herdr-subagents__1_full.jsonl",
  "real/claude-code/entireio__cli__cd_95adddad32_0_full.jsonl",
  "real/codex/EntityProcess__agentv__00_34f597b72d_1_full.jsonl",
].map((name) => sharedFixture(name));
const FILES = process.env.BONSAI_E2E_SESSION_FILES ? process.env.BONSAI_E2E_SESSION_FILES.split(":").filter((f) => f !== "") : DEFAULT_FILES.filter((f): f is string => f !== null);
const SCREENSHOTS = path.join(REPO_ROOT, ".test-results/real-sessions");

/** "12.3K" -> the range of whole numbers the list's compact figure stands for */
function compactCovers(text: string, exact: number): boolean {
  const m = /^([\d.]+)([KM]?)$/u.exec(text.trim());
  if (!m) return false;
  const scale = m[2] === "M" ? 1_000_000 : m[2] === "K" ? 1000 : 1;
  const shown = Number(m[1]) * scale;
  const step = m[2] === "" ? 1 : (scale / 10) * (Number(m[1]) >= 100 ? 10 : 1);
  return Math.abs(shown - exact) <= step / 2 + 1e-6 * scale;
}

test.describe("real sessions of every agent in the page", () => {
  test.skip(FILES.length === 0, "the real sessions of ../shared/fixtures/real are not present next to the checkout");
  test.skip(({ target }) => target === "electron", "imports through the browser's file input; the Electron app takes the same backend calls");

  for (const [i, file] of FILES.entries()) {
    test(`${path.basename(file).slice(0, 60)}: tree, inspector and What the model sees agree on the figure`, async ({ app: page, bonsai }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width: 1024, height: 800 });
      await page.getByTestId("import-input").setInputFiles(file);
      await expect(page.getByTestId("import-result")).toContainText("Imported 1 of 1 file", { timeout: 60_000 });
      const item = page.getByTestId("session-item").first();
      const sessionId = (await item.getAttribute("data-session-id"))!;
      await expect(item.getByTestId("session-tokens")).toHaveText(/\d/u);
      const listed = (await item.getByTestId("session-tokens").textContent()) ?? "";
      await item.click();
      await expect(page.getByTestId("explorer")).toBeVisible();
      await expect(page.locator(".react-flow__node").first()).toBeVisible({ timeout: 30_000 });

      // the inspector at the leaf
      await leafNode(page).first().click();
      await page.getByTestId("tab-inspect").click();
      const leafId = (await page.getByTestId("tree-status").getAttribute("data-leaf-id"))!;
      await expect(page.getByTestId("inspector")).toHaveAttribute("data-entry-id", leafId);
      await expect(page.getByTestId("inspector-context-tokens")).toHaveText(/\d/u);
      const inspector = await shownNumber(page.getByTestId("inspector-context-tokens"));

      // What the model sees from the leaf
      await page.getByTestId("tab-context").click();
      const view = page.getByTestId("context-view");
      await expect(view).toHaveAttribute("data-leaf-id", leafId);
      await expect(view.getByTestId("context-figure")).toHaveText(/\d/u);
      const shown = await shownNumber(view.getByTestId("context-figure"));
      const backend = await bonsai.call<{ agentTokens: number; tokens: number }>("getContextPreview", { sessionId, leafId });
      expect(inspector, "inspector vs What the model sees").toBe(shown);
      expect(shown, "What the model sees vs the backend").toBe(backend.agentTokens);
      expect(compactCovers(listed, shown), `the list's "${listed}" stands for ${shown}`).toBe(true);
      // within the window the page names
      const windowText = (await view.textContent()) ?? "";
      const of = /of ([\d,]+) tokens \(([\d.]+)%\)/u.exec(windowText);
      expect(of, "What the model sees names the window").not.toBeNull();
      expect(Number(of![2])).toBeLessThanOrEqual(100);
      expect(shown).toBeLessThanOrEqual(Number(of![1]!.replace(/,/gu, "")));

      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      for (const theme of ["light", "dark"] as const) {
        await setTheme(page, theme);
        await page.screenshot({ path: path.join(SCREENSHOTS, `${i}-${path.basename(file, ".jsonl").slice(0, 40)}-context-1024-${theme}.png`) });
        await page.getByTestId("tab-inspect").click();
        await page.screenshot({ path: path.join(SCREENSHOTS, `${i}-${path.basename(file, ".jsonl").slice(0, 40)}-inspector-1024-${theme}.png`) });
        await page.getByTestId("tab-context").click();
      }
    });
  }
});
