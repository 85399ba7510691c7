/**
 * Search across sessions: a hit in another session opens it and reveals the entry in its tree; hits
 * where the words stand next to each other come first.
 */
import type { GeneratedSession } from "@bonsai/testkit";
import { expect, generatedSessionFile, importAndOpen, screenshot, test } from "./explorer-fixtures";

const WORD = "zanzibarquux";

test("search across sessions and jump to the hit", async ({ app: page }, testInfo) => {
  let target = "";
  let targetSession = "";
  const plant = (s: GeneratedSession) => {
    // a user prompt in the middle of the session, inside a collapsed run of the tree
    const users = s.entries.filter((e) => e.type === "message" && (e as { message: { role: string } }).message.role === "user");
    const entry = users[Math.floor(users.length / 2)] as { id: string; message: { content: unknown } };
    entry.message.content = `Please look at the ${WORD} adapter before the release`;
    target = entry.id;
    targetSession = s.header.id;
  };
  const other = await generatedSessionFile(testInfo, "Search haystack", { entries: 240, seed: 31, compactionInterval: 0 });
  const withWord = await generatedSessionFile(testInfo, "Search needle", { entries: 240, seed: 32, compactionInterval: 0 }, plant);
  await importAndOpen(page, withWord, "Search needle");
  await importAndOpen(page, other, "Search haystack");
  await expect(page.getByTestId("session-view")).not.toHaveAttribute("data-session-id", targetSession);

  await page.getByTestId("open-search").click();
  await page.getByTestId("search-input").fill(WORD);
  await page.getByTestId("search-input").press("Enter");
  const hit = page.getByTestId("search-hit").filter({ has: page.locator("mark", { hasText: WORD }) });
  await expect(hit).toHaveCount(1);
  await expect(hit).toHaveAttribute("data-entry-id", target);
  await expect(hit).toContainText("Search needle");
  await screenshot(page, testInfo, "search-hits");

  await hit.click();
  await expect(page.getByTestId("search-panel")).toBeHidden();
  await expect(page.getByTestId("session-view")).toHaveAttribute("data-session-id", targetSession);
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-entry-id", target);
  await expect(page.getByTestId("inspector")).toContainText(WORD);
  // the hit opens in the transcript, at its message; the tree has it selected too
  await expect(page.locator(`[data-testid="transcript-message"][data-entry-id="${target}"]`)).toHaveAttribute("aria-current", "true");
  await page.getByTestId("view-tree").click();
  const node = page.getByTestId(`tree-node-${target}`);
  await expect(node).toBeVisible();
  await expect(node).toHaveAttribute("data-selected", "true");
  await screenshot(page, testInfo, "search-jumped");
});

test("a search finds the entry where the words stand next to each other first", async ({ app: page }, testInfo) => {
  const filler = (n: number): string => Array.from({ length: n }, (_, i) => `filler${i}`).join(" ");
  const placed: Record<string, string> = {};
  const plant = (s: GeneratedSession) => {
    const users = s.entries.filter((e) => e.type === "message" && (e as { message: { role: string } }).message.role === "user") as { id: string; message: { content: unknown } }[];
    // bm25 alone ranks "far" first: both words often, in a short message
    const texts = {
      far: `quokka quokka quokka quokka ${filler(20)} wombat wombat wombat wombat`,
      near: `${filler(40)} the quokka met a wombat today ${filler(40)}`,
      adjacent: `${filler(60)} a quokka wombat appeared ${filler(60)}`,
    };
    Object.entries(texts).forEach(([name, text], i) => {
      const entry = users[10 + i * 5] as { id: string; message: { content: unknown } };
      entry.message.content = text;
      placed[name] = entry.id;
    });
  };
  const file = await generatedSessionFile(testInfo, "Search closeness", { entries: 240, seed: 33, compactionInterval: 0 }, plant);
  await importAndOpen(page, file, "Search closeness");
  await page.getByTestId("open-search").click();
  await page.getByTestId("search-input").fill("quokka wombat");
  await page.getByTestId("search-input").press("Enter");
  await expect(page.getByTestId("search-hit")).toHaveCount(3);
  const order = await page.getByTestId("search-hit").evaluateAll((hits) => hits.map((h) => h.getAttribute("data-entry-id")));
  expect(order).toEqual([placed.adjacent, placed.near, placed.far]);
  await screenshot(page, testInfo, "search-closeness");
});
