/**
 * Search in scripts written without spaces, in the app: the Japanese word of a real Codex session
 * (../shared/fixtures/real, read there) is found inside its sentence, and a Chinese word inside a
 * generated one, each hit with the word marked. Screenshots at 1024 and 1400 px, light and dark, go
 * to .test-results/search-scripts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, sharedFixture } from "../support/paths";
import { expect, generatedSessionFile, importAndOpen, setTheme, test } from "./explorer-fixtures";

const CODEX = sharedFixture("real/codex/ta93abe__me__1b_d3b5f272f9_0_full.jsonl");
const SCREENSHOTS = path.join(REPO_ROOT, ".test-results/search-scripts");
const WORD = "マイグレーション";

// two imports, then four searches at two widths and two themes
test.describe.configure({ timeout: 180_000 });
test.skip(!CODEX, "the real Codex file of ../shared/fixtures/real is not present next to the checkout");

test("finds a Japanese word inside a sentence of a real Codex session and a Chinese word in a generated one", async ({ app: page }, testInfo) => {
  // every line of the file that holds the word is one hit (two user messages and their two events)
  const lines = fs.readFileSync(CODEX!, "utf8").split("\n").filter((l) => l.includes(WORD)).length;
  let chinese = "";
  const generated = await generatedSessionFile(testInfo, "Chinese prompts", { entries: 60, seed: 7, compactionInterval: 0 }, (s) => {
    const user = s.entries.find((e) => e.type === "message" && (e as { message: { role: string } }).message.role === "user") as { id: string; message: { content: unknown } };
    user.message.content = "请把数据库迁移到新的服务器上";
    chinese = user.id;
  });
  await importAndOpen(page, generated, "Chinese prompts");
  await page.getByTestId("import-input").setInputFiles(CODEX!);
  await expect(page.getByTestId("session-item")).toHaveCount(2, { timeout: 30_000 });

  const input = page.getByTestId("search-input");
  const hits = page.getByTestId("search-hit");
  const search = async (query: string): Promise<void> => {
    await page.getByTestId("open-search").click();
    await input.fill(query);
    await input.press("Enter");
  };
  await search("数据库");
  const chineseHit = hits.filter({ has: page.locator("mark", { hasText: "数据库" }) });
  await expect(chineseHit).toHaveCount(1);
  await expect(chineseHit).toHaveAttribute("data-entry-id", chinese);
  await input.press("Escape");
  await expect(page.getByTestId("search-panel")).toBeHidden();

  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of [1024, 1400]) {
    await page.setViewportSize({ width, height: 900 });
    for (const theme of ["light", "dark"] as const) {
      await setTheme(page, theme);
      await search(WORD);
      await expect(hits).toHaveCount(lines);
      await expect(hits.filter({ has: page.locator("mark", { hasText: WORD }) })).toHaveCount(lines);
      await expect(hits.first()).toContainText(`sveltia の${WORD}を進めて`);
      await page.screenshot({ path: path.join(SCREENSHOTS, `search-japanese-${width}-${theme}.png`) });
      await input.press("Escape");
      await expect(page.getByTestId("search-panel")).toBeHidden();
    }
  }
});
