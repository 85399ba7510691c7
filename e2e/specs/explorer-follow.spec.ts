/** Live follow: entries an agent appends to the session file appear in the open tree, centred on the new leaf. */
import * as fs from "node:fs";
import * as path from "node:path";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import { expect, screenshot, test } from "./explorer-fixtures";

test("entries appended to the source file show up in the open tree", async ({ app: page, bonsai }, testInfo) => {
  // an agent's session file, in an agents' session folder of the host (the page may import those)
  const file = path.join(bonsai.sessionsDir, "followed.jsonl");
  const session = generateSession({ entries: 60, seed: 61, compactionInterval: 0, branchProbability: 0 });
  session.header.title = "Followed session";
  await writeSessionJsonl(file, session);
  const imported = await bonsai.call<{ results: Array<{ ok: boolean; error: string | null }> }>("importSessions", { paths: [file] });
  expect(imported.results[0]?.ok, imported.results[0]?.error ?? "").toBe(true);
  // which skeleton reads the page makes (the reload opens the connection the listener sees)
  const reads: string[] = [];
  // and which usage the tree's figures ask for (after a change: only the nodes after those it holds)
  const usageAsks: string[] = [];
  page.on("websocket", (ws) =>
    ws.on("framesent", (f) => {
      const payload = String(f.payload);
      reads.push(/"method":"(getSkeleton\w*|openSession)"/u.exec(payload)?.[1] ?? "");
      if (payload.includes('"method":"getUsagePoints"')) usageAsks.push(payload);
    }),
  );
  await page.reload();
  const item = page.getByTestId("session-item").filter({ hasText: "Followed session" });
  await item.click();
  const status = page.getByTestId("tree-status");
  await expect(status).toHaveAttribute("data-entry-count", "60");
  await expect(page.getByTestId("follow-toggle")).toBeChecked();

  // the agent writes a new prompt and a reply
  const last = session.entries[session.entries.length - 1]?.id ?? null;
  const now = Date.now();
  const lines = [
    { type: "message", id: "f0110001", parentId: last, timestamp: new Date(now).toISOString(), message: { role: "user", content: "Now follow me live", timestamp: now } },
    {
      type: "message",
      id: "f0110002",
      parentId: "f0110001",
      timestamp: new Date(now + 1000).toISOString(),
      message: {
        role: "assistant",
        content: [{ type: "text", text: "Following along." }],
        api: "openai-completions",
        provider: "mock",
        model: "mock-model",
        usage: { input: 10, output: 3, cacheRead: 0, cacheWrite: 0, totalTokens: 13 },
        stopReason: "stop",
        timestamp: now + 1000,
      },
    },
  ];
  fs.appendFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");

  await expect(status).toHaveAttribute("data-entry-count", "62", { timeout: 30_000 });
  await expect(status).toHaveAttribute("data-leaf-id", "f0110002");
  const leaf = page.getByTestId("tree-node-f0110002");
  await expect(leaf).toBeInViewport();
  await expect(leaf).toHaveAttribute("data-leaf", "true");
  await expect(leaf).toContainText("Following along.");
  // the appended entries came as a tail: the 60 nodes already shown were not sent again
  expect(reads.filter(Boolean)).not.toContain("getSkeleton");
  expect(reads).toContain("getSkeletonTail");
  // the tree's figures: the new reply's usage asked for alone (the page holds the 60 nodes' before), and shown
  await expect.poll(() => usageAsks.length).toBe(2);
  expect(usageAsks[0]).not.toContain('"after"');
  expect(usageAsks[1]).toMatch(/"after":\{"nodes":60,"lastId":"[^"]+"\}/u);
  await leaf.click();
  await page.getByTestId("tab-inspect").click();
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-entry-id", "f0110002");
  // what the reply reports (13 tokens), as the backend's What the model sees gives it
  const preview = await bonsai.call<{ agentTokens: number }>("getContextPreview", { sessionId: (await page.getByTestId("session-view").getAttribute("data-session-id"))!, leafId: "f0110002" });
  expect(preview.agentTokens).toBe(13);
  await expect(page.getByTestId("inspector-context-tokens")).toHaveText(/^\D*13\D*$/u);
  await screenshot(page, testInfo, "followed");
});
