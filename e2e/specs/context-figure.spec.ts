/**
 * The context figure in the app on a real Claude Code session (../shared/fixtures/real, read there):
 * the session list and What the model sees show what the model last reported (62,842 tokens) plus
 * the estimate after it, the estimate of the messages in the file beside it, labelled, and the
 * window of the session's model. Screenshots at 1024 and 1400 px, light and dark, go to
 * .test-results/context-figure.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { test, expect } from "../support/fixtures";
import { REPO_ROOT, sharedFixture } from "../support/paths";
import { setTheme } from "./explorer-fixtures";

const CLAUDE = sharedFixture("real/claude-code/entireio__cli__cd_95adddad32_0_full.jsonl");
const SCREENSHOTS = path.join(REPO_ROOT, ".test-results/context-figure");

test.describe("the context figure", () => {
  test.skip(!CLAUDE, "the real Claude Code file of ../shared/fixtures/real is not present next to the checkout");
  test.skip(({ target }) => target === "electron", "imports through the browser's file input; the Electron app takes the same backend calls");

  test("a Claude Code session: the reported usage in the list and What the model sees, the estimate beside it", async ({ app }) => {
    await app.getByTestId("import-input").setInputFiles(CLAUDE!);
    await expect(app.getByTestId("import-result")).toContainText("Imported 1 of 1 file");
    const item = app.getByTestId("session-item");
    await expect(item.getByTestId("session-tokens")).toHaveText("62.8K");
    await expect(item.getByTestId("session-estimated-tokens")).toContainText("est. in file");
    await item.click();
    await app.getByTestId("tab-context").click();
    const view = app.getByTestId("context-view");
    await expect(view.getByTestId("context-figure")).toHaveText("62,842");
    await expect(view.getByTestId("context-figure")).toHaveAttribute("data-basis", "reported");
    await expect(view.getByTestId("context-window-source")).toContainText("claude-opus-4-5-20251101");
    await expect(view).toContainText("of 200,000 tokens (31.4%)");
    await expect(view).toContainText("Estimate of the messages in the file");
    await expect(view).toContainText("system prompt, tools");
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    for (const width of [1024, 1400]) {
      await app.setViewportSize({ width, height: 900 });
      for (const theme of ["light", "dark"] as const) {
        await setTheme(app, theme);
        await app.screenshot({ path: path.join(SCREENSHOTS, `claude-code-context-${width}-${theme}.png`) });
      }
    }
  });
});
