/**
 * Titles and undo (issue 32, point 6): a session's title is the agent's or the user's, never a
 * compaction's summary, and undo puts back what it took — the title as it was after undoing a
 * compaction, and no extra branch after undoing a label — in the list, the store and the file.
 * Screenshots at 1024 and 1400 px wide, light and dark.
 */
import * as fs from "node:fs";
import type { Page, TestInfo } from "@playwright/test";
import type { GeneratedSession } from "@bonsai/testkit";
import { expect, generatedSessionFile, leafNode, screenshot, setTheme, test } from "./explorer-fixtures";

type SessionEntry = GeneratedSession["entries"][number];

const PROMPT = "Titles fixture: make the parser stream its input";

interface Line {
  id: string;
  type: string;
  parentId: string | null;
  targetId?: string;
  label?: string;
}
const fileLines = (file: string): Line[] =>
  fs
    .readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as Line);
/** entries no other entry of the file hangs off: one per branch */
const tips = (lines: Line[]) => lines.filter((l) => !lines.some((c) => c.parentId === l.id)).length;

async function shootAtWidths(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const width of [1024, 1400]) {
    await page.setViewportSize({ width, height: 860 });
    for (const theme of ["light", "dark"] as const) {
      await setTheme(page, theme);
      await screenshot(page, testInfo, `${name}-${width}-${theme}`);
    }
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

test("a compaction does not rename the session, and its undo leaves the title as it was", async ({ app: page, bonsai }, testInfo) => {
  test.setTimeout(90_000);
  // no title in the file: the list shows the first prompt
  const file = await generatedSessionFile(
    testInfo,
    "Titles fixture",
    { entries: 220, seed: 17, compactionInterval: 0, branchProbability: 0 },
    (session) => {
      delete session.header.title;
      const first = session.entries.find((e) => e.type === "message" && (e as { message: { role: string } }).message.role === "user") as { message: { content: unknown } };
      first.message.content = PROMPT;
    },
    bonsai.sessionsDir,
  );
  await bonsai.call("importSessions", { paths: [file] });
  await page.reload();
  const item = page.getByTestId("session-item").filter({ hasText: PROMPT });
  await item.click();
  await expect(leafNode(page)).toBeVisible();
  const storedTitle = async () => ((await bonsai.call("listSessions", {})) as { sessions: { title: string }[] }).sessions[0]!.title;
  expect(await storedTitle()).toBe(PROMPT);

  await page.getByTestId("tab-compact").click();
  await page.getByTestId("compaction-run").click();
  await expect(leafNode(page)).toHaveAttribute("data-kind", "compaction", { timeout: 30_000 });
  // the summary is in the file, and never in the list
  expect(fileLines(file).at(-1)?.type).toBe("compaction");
  await expect(item.getByTestId("session-title")).toHaveAttribute("title", PROMPT);
  await expect(page.getByTestId("session-title").filter({ hasText: /## Goal|Next Steps/u })).toHaveCount(0);
  expect(await storedTitle()).toBe(PROMPT);
  await shootAtWidths(page, testInfo, "title-after-compaction");

  await page.getByTestId("undo-button").click();
  await expect(page.getByTestId("notification").filter({ hasText: "The compaction is undone" })).toBeVisible();
  await expect(item.getByTestId("session-title")).toHaveAttribute("title", PROMPT);
  expect(await storedTitle()).toBe(PROMPT);
  // after a reload too (what the store keeps)
  await page.reload();
  await expect(page.getByTestId("session-item").filter({ hasText: PROMPT })).toHaveCount(1);
});

test("undoing a label adds no branch: the old label comes back right after the undone one", async ({ app: page, bonsai }, testInfo) => {
  test.setTimeout(90_000);
  const file = await generatedSessionFile(
    testInfo,
    "Label undo fixture",
    { entries: 120, seed: 5, compactionInterval: 0, branchProbability: 0 },
    (session) => {
      // a second branch, in the middle of the file (the last line stays the leaf)
      const at = session.entries[20] as SessionEntry;
      const side = { type: "message", id: "side0001", parentId: at.id, timestamp: at.timestamp, message: { role: "user", content: "a side question", timestamp: 1 } };
      session.entries.splice(40, 0, side as unknown as SessionEntry);
    },
    bonsai.sessionsDir,
  );
  await bonsai.call("importSessions", { paths: [file] });
  await page.reload();
  await page.getByTestId("session-item").filter({ hasText: "Label undo fixture" }).click();
  await expect(leafNode(page)).toBeVisible();
  const branchesBefore = tips(fileLines(file));
  expect(branchesBefore).toBe(2);
  const target = (await page.getByTestId("tree-status").getAttribute("data-leaf-id"))!;

  await leafNode(page).click();
  await page.getByTestId("label-input").fill("before the refactor");
  await page.getByTestId("label-save").click();
  await expect(page.getByTestId(`tree-node-${target}`).getByTestId("node-label")).toHaveText("before the refactor");
  const labelEntry = fileLines(file).at(-1)!;
  expect(labelEntry).toMatchObject({ type: "label", targetId: target, parentId: target });

  await page.getByTestId("undo-button").click();
  await expect(page.getByTestId("notification").filter({ hasText: "The label is undone" })).toBeVisible();
  await expect(page.getByTestId(`tree-node-${target}`).getByTestId("node-label")).toHaveCount(0);
  // the file: the same branches, the restoring label entry right after the undone one
  const after = fileLines(file);
  expect(tips(after)).toBe(branchesBefore);
  expect(after.at(-1)).toMatchObject({ type: "label", targetId: target, parentId: labelEntry.id });
  expect(after.at(-1)?.label ?? "").toBe("");
  // the store: the same branches, its leaf the file's last line
  await expect.poll(async () => ((await bonsai.call("listSessions", {})) as { sessions: { branches: number | null }[] }).sessions[0]!.branches).toBe(branchesBefore);
  await expect(page.getByTestId("tree-status")).toHaveAttribute("data-leaf-id", after.at(-1)!.id);
  await shootAtWidths(page, testInfo, "label-undone");
});
