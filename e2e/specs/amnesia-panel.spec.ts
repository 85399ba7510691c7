/**
 * The amnesia report in the explorer: the score badge on a compaction node, the panel listing the
 * findings (a file read again, a call repeated, an instruction restated, a name missing from the
 * summary) whose entries are marked in the tree when a finding is picked; and the same "absent from
 * the summary" check on a dry-run summary, whose button adds the missing names to the instructions
 * and runs the dry run again.
 */
import * as fs from "node:fs";
import type { TestInfo } from "@playwright/test";
import type { ChatRequestBody } from "@bonsai/testkit";
import { expect, importAndOpen, screenshot, test, treeNode, useLoopbackModel } from "./explorer-fixtures";

const t = (i: number) => new Date(Date.UTC(2026, 2, 1, 9, 0, i)).toISOString();
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
const user = (content: string) => ({ role: "user", content });
const reply = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], api: "x", provider: "p", model: "m", usage, stopReason: "stop" });
const call = (id: string, name: string, args: object) => ({ role: "assistant", content: [{ type: "toolCall", id, name, arguments: args }], api: "x", provider: "p", model: "m", usage, stopReason: "toolUse" });
const result = (id: string, name: string, text: string) => ({ role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text }], isError: false });

/** A session file of `title` whose entries are m0, m1, … (a compaction where `compactAt` says). */
function writeSession(testInfo: TestInfo, title: string, messages: object[], compaction?: { after: number; keepFrom: number; summary: string }): string {
  const lines: object[] = [{ type: "session", version: 3, id: title.replace(/\W+/gu, "-"), timestamp: t(0), cwd: "/work/app", title }];
  let parent: string | null = null;
  messages.forEach((m, i) => {
    const id = `m${i}`;
    lines.push({ type: "message", id, parentId: parent, timestamp: t(i + 1), message: { timestamp: Date.parse(t(i + 1)), ...m } });
    parent = id;
    if (compaction && i === compaction.after) {
      lines.push({ type: "compaction", id: "C", parentId: id, timestamp: t(i + 1.5), summary: compaction.summary, firstKeptEntryId: `m${compaction.keepFrom}`, tokensBefore: 120000 });
      parent = "C";
    }
  });
  const file = testInfo.outputPath(`${title.replace(/\W+/gu, "-")}.jsonl`);
  fs.writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return file;
}

test("the badge on a compaction, the findings panel, and the entries of a finding marked in the tree", async ({ app: page }, testInfo) => {
  const file = writeSession(
    testInfo,
    "Amnesia fixture",
    [
      user("Add retry with backoff to the HTTP client. Keep the public interface of the client unchanged."),
      call("c1", "read", { path: "src/http/client.ts" }),
      result("c1", "read", "export class HttpClient { request() {} }"),
      call("c2", "grep", { pattern: "backoff", path: "src" }),
      result("c2", "grep", "no matches"),
      reply("I will add withBackoff around request()."),
      user("Write the tests next."),
      reply("Tests written."),
      // after the compaction (summary: m0..m5; kept: m6, m7)
      user("Please keep the public interface of the client unchanged."),
      call("c3", "read", { path: "src/http/client.ts" }),
      result("c3", "read", "export class HttpClient { request() {} }"),
      call("c4", "grep", { pattern: "backoff", path: "src" }),
      result("c4", "grep", "src/http/client.ts"),
      reply("withBackoff now caps the delay."),
    ],
    { after: 7, keepFrom: 6, summary: "## Goal\nRetry with backoff for src/http/client.ts.\n\n## Progress\n- [x] tests written" },
  );
  await importAndOpen(page, file, "Amnesia fixture");
  const badge = treeNode(page, "C").getByTestId("amnesia-badge");
  await expect(badge).toHaveText("amnesia 8");
  await screenshot(page, testInfo, "amnesia-badge-light");

  await badge.click();
  await expect(page.getByTestId("side-panel")).toHaveAttribute("data-panel", "amnesia");
  const section = page.getByTestId("amnesia-compaction");
  await expect(section).toHaveAttribute("data-amnesia-of", "C");
  await expect(section.getByTestId("amnesia-score")).toHaveText("score 8");
  const findings = section.getByTestId("amnesia-finding");
  await expect(findings).toHaveCount(4);
  expect(await findings.evaluateAll((els) => els.map((e) => e.getAttribute("data-kind")))).toEqual(["reread", "repeatedCall", "restatedInstruction", "droppedIdentifier"]);
  await expect(findings.nth(0)).toContainText("src/http/client.ts read again once");
  await expect(findings.nth(3)).toContainText("withBackoff");

  // picking the restated instruction marks both user messages and selects (and centres) the later one
  await findings.nth(2).click();
  await expect(treeNode(page, "m8")).toHaveClass(/bz-amnesia-hit/);
  await expect(treeNode(page, "m8")).toHaveAttribute("data-selected", "true");
  await expect(treeNode(page, "m9")).not.toHaveClass(/bz-amnesia-hit/);
  // an entry id of a finding reveals that entry: the earlier user message, marked too
  const entries = findings.nth(2).locator("..").getByTestId("amnesia-entry");
  await expect(entries).toHaveText(["m0", "m8"]);
  await entries.first().click();
  await expect(treeNode(page, "m0")).toHaveAttribute("data-selected", "true");
  await expect(treeNode(page, "m0")).toHaveClass(/bz-amnesia-hit/);
  await findings.nth(0).locator("..").getByTestId("amnesia-entry").first().click();
  await expect(treeNode(page, "m1")).toHaveAttribute("data-selected", "true");
  await screenshot(page, testInfo, "amnesia-panel-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await findings.nth(0).click();
  await expect(treeNode(page, "m9")).toHaveClass(/bz-amnesia-hit/);
  await screenshot(page, testInfo, "amnesia-panel-dark");
});

test("a session without signs: the badge says so and the panel lists nothing", async ({ app: page }, testInfo) => {
  const file = writeSession(
    testInfo,
    "Clean fixture",
    [user("Add a changelog for the release."), call("c1", "read", { path: "CHANGELOG.md" }), result("c1", "read", "# Changes"), reply("Read it."), user("Now bump the version."), reply("Bumped."), user("Thanks, that is all for today."), reply("Bye.")],
    { after: 5, keepFrom: 4, summary: "## Goal\nChangelog written in CHANGELOG.md." },
  );
  await importAndOpen(page, file, "Clean fixture");
  await expect(treeNode(page, "C").getByTestId("amnesia-badge")).toHaveText("no amnesia");
  await page.getByTestId("tab-amnesia").click();
  await expect(page.getByTestId("amnesia-score")).toHaveText("score 0");
  await expect(page.getByTestId("amnesia-finding")).toHaveCount(0);
});

test("the dry-run summary check names what the summary left out, and adds it to the instructions", async ({ app: page, model }, testInfo) => {
  await useLoopbackModel(page, model);
  // a model that keeps the names it is asked to keep, and no others
  const userText = (b: ChatRequestBody) => String(b.messages.find((m) => m.role === "user")?.content ?? "");
  model.setChatFallback((b) => ({ kind: "text", text: userText(b).includes("Keep these identifiers verbatim") ? "## Goal\nFix parseRetryAfter for HTTP dates." : "## Goal\nFix the retry parsing." }));
  try {
    const big = "x".repeat(90000);
    const file = writeSession(testInfo, "Summary check fixture", [
      user(`Fix parseRetryAfter in src/retry.ts for HTTP dates. ${big}`),
      reply("Fixed."),
      user(`Now test parseRetryAfter with seconds too. ${big}`),
      reply("Tested."),
    ]);
    await importAndOpen(page, file, "Summary check fixture");
    await page.getByTestId("tab-compact").click();
    await expect(page.getByTestId("compaction-plan")).toBeVisible();
    await page.getByTestId("compaction-dry-run").click();
    const check = page.getByTestId("summary-check");
    await expect(check).toHaveAttribute("data-missing", "1", { timeout: 30_000 });
    await expect(page.getByTestId("summary-check-missing")).toHaveText(["parseRetryAfter symbol"]);
    await screenshot(page, testInfo, "summary-check-light");
    // editing the summary is checked as it is typed
    const summary = page.getByTestId("dry-run-summary");
    await summary.fill(`${await summary.inputValue()} (parseRetryAfter)`);
    await expect(check).toHaveAttribute("data-missing", "0");
    await summary.fill("## Goal\nFix the retry parsing.");
    await expect(check).toHaveAttribute("data-missing", "1");

    await page.getByTestId("summary-check-retry").click();
    await expect(page.getByTestId("compaction-instructions")).toHaveValue("Keep these identifiers verbatim in the summary: parseRetryAfter.");
    await expect(page.getByTestId("dry-run-summary")).toHaveValue(/Fix parseRetryAfter for HTTP dates/u, { timeout: 30_000 });
    await expect(check).toHaveAttribute("data-missing", "0");
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot(page, testInfo, "summary-check-dark");
  } finally {
    model.setChatFallback(undefined);
  }
});
