/**
 * A session never compacted: every message of the path is in the context. The backend sends the
 * first CONTEXT_LIST_HEAD (50) and the newest CONTEXT_LIST_TAIL (450) messages with the figures of
 * the ones in between, the context view lists them with the number in between, and the page asks
 * for them all when the user does, drawing them 1,000 at a time as the list scrolls; the totals
 * count every message either way.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import { bonsaiCli } from "../support/fixtures";
import { BonsaiServer, expect, screenshot, setTheme, test } from "./explorer-fixtures";

test.describe.configure({ timeout: 180_000 });

test("a context of thousands of messages lists its start and its newest ones, and all of them when asked", async ({ page }, testInfo) => {
  const dataDir = testInfo.outputPath("data");
  fs.mkdirSync(dataDir, { recursive: true });
  const session = generateSession({ entries: 3000, seed: 91, compactionInterval: 0, branchProbability: 0, sessionId: "long-context" });
  session.header.title = "Never compacted";
  const file = testInfo.outputPath("long.jsonl");
  await writeSessionJsonl(file, session);
  const db = path.join(dataDir, "bonsai.db");
  bonsaiCli(["import", file], { BONSAI_DB: db });
  const expected = JSON.parse(bonsaiCli(["context", "long-context", "--json"], { BONSAI_DB: db })) as { entryIds: string[]; roles: string[] };
  const total = expected.entryIds.length;
  expect(total).toBeGreaterThan(1000);

  const server = new BonsaiServer(dataDir);
  await server.start();
  // the context previews the backend sends: how many messages each lists
  const listed: number[] = [];
  page.on("websocket", (ws) =>
    ws.on("framereceived", (f) => {
      const text = String(f.payload);
      if (!text.includes('"pathLength"') || !text.includes('"sizeSeries"')) return;
      const frame = JSON.parse(text) as { t: string; result?: { ok: boolean; value?: { messages?: unknown[] } } };
      const messages = frame.t === "result" && frame.result?.ok ? frame.result.value?.messages : undefined;
      if (messages) listed.push(messages.length);
    }),
  );
  try {
    await page.goto(server.url);
    await page.getByTestId("session-item").filter({ hasText: "Never compacted" }).click();
    await page.getByTestId("tab-context").click();
    await expect(page.getByTestId("context-count")).toHaveText(String(total));
    const rows = page.getByTestId("context-message");
    await expect(rows).toHaveCount(500);
    // the start, the newest, and what lies between
    await expect(rows.first()).toHaveAttribute("data-entry-id", expected.entryIds[0] as string);
    await expect(rows.nth(49)).toHaveAttribute("data-entry-id", expected.entryIds[49] as string);
    await expect(rows.nth(50)).toHaveAttribute("data-entry-id", expected.entryIds[total - 450] as string);
    await expect(rows.last()).toHaveAttribute("data-entry-id", expected.entryIds[total - 1] as string);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((n) => n === 500)).toBe(true);
    const figures = await page.getByTestId("context-total").textContent();
    const folded = page.getByTestId("context-folded");
    await expect(folded).toContainText(`${(total - 500).toLocaleString("en-US")} messages in between are not listed.`);
    await folded.scrollIntoViewIfNeeded();
    await setTheme(page, "dark");
    await screenshot(page, testInfo, "context-folded-dark");
    await setTheme(page, "light");
    await screenshot(page, testInfo, "context-folded-light");

    await page.getByTestId("context-list-all").click();
    // all of them, drawn 1,000 at a time (DRAW_STEP): more as the end of the drawn rows scrolls into view
    await expect(folded).toHaveCount(0);
    await expect(rows).toHaveCount(1000);
    const more = page.getByTestId("context-more");
    await expect(more).toContainText(`${(total - 1000).toLocaleString("en-US")} more messages`);
    for (let drawn = 1000; drawn < total; drawn += 1000) {
      await more.scrollIntoViewIfNeeded();
      await expect(rows).toHaveCount(Math.min(total, drawn + 1000));
    }
    await expect(more).toHaveCount(0);
    expect(listed.at(-1)).toBe(total);
    await expect(page.getByTestId("context-total")).toHaveText(figures as string);
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-entry-id")))).toEqual(expected.entryIds);
  } finally {
    await server.stop();
  }
});
