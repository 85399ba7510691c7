/**
 * One figure per node (issue 44): for nodes of every kind, in both themes, the inspector's "model
 * sees from here", What the model sees (which follows the selection, says where from, and goes back
 * to the leaf), the backend's answer, the compaction node's "before → after" (before: the recorded
 * tokensBefore), and at the leaf the Compact panel, the dry run and the session list all lead with
 * the same display figure (compaction.md §2.6), the estimate second. Pruning reports what the model
 * stops seeing, before → after, and, apart, the bytes it hides.
 */
import { expect, generatedSessionFile, importAndOpen, longDashedSides, screenshot, selectViaTranscript, setTheme, shownNumber, test } from "./explorer-fixtures";

const compactTokens = (n: number) => (n < 1000 ? String(Math.round(n)) : new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 }).format(n));

test("the same node shows the same context tokens in every panel", async ({ app: page, bonsai }, testInfo) => {
  test.setTimeout(120_000);
  const file = await generatedSessionFile(testInfo, "Figures fixture", { entries: 220, seed: 17, compactionInterval: 70, branchProbability: 0.15 });
  await importAndOpen(page, file, "Figures fixture");
  const sessionId = (await page.getByTestId("session-view").getAttribute("data-session-id"))!;
  const { skeleton } = await bonsai.call<{ skeleton: { ids: string[] } }>("openSession", { sessionId });
  const leafId = (await page.getByTestId("tree-status").getAttribute("data-leaf-id"))!;

  // the active path's entries, by kind (the transcript shows every one of them)
  await page.getByTestId("view-transcript").click();
  const rows = page.getByTestId("transcript-message");
  await expect(rows.first()).toBeVisible();
  const byKind = new Map<string, string>();
  for (const row of await rows.all()) {
    const kind = (await row.getAttribute("data-kind"))!;
    if (!byKind.has(kind)) byKind.set(kind, (await row.getAttribute("data-entry-id"))!);
  }
  expect([...byKind.keys()]).toEqual(expect.arrayContaining(["user", "assistant", "toolResult", "compaction", "meta"]));
  expect(skeleton.ids.length).toBeGreaterThan(200);

  let round = 0;
  for (const [kind, id] of byKind) {
    // half the nodes in each theme
    await setTheme(page, round++ % 2 === 0 ? "light" : "dark");
    await selectViaTranscript(page, id);
    await page.getByTestId("tab-inspect").click();
    await expect(page.getByTestId("inspector")).toHaveAttribute("data-entry-id", id);
    await expect(page.getByTestId("inspector-context-tokens")).toHaveText(/\d/u);
    const inspector = await shownNumber(page.getByTestId("inspector-context-tokens"));
    const inspectorEstimate = (await page.getByTestId("inspector-estimated-tokens").count()) > 0 ? await shownNumber(page.getByTestId("inspector-estimated-tokens")) : inspector;
    await screenshot(page, testInfo, `figures-inspector-${kind}-${round % 2 === 1 ? "light" : "dark"}`);
    await page.getByTestId("tab-context").click();
    const view = page.getByTestId("context-view");
    await expect(view).toHaveAttribute("data-leaf-id", id);
    const shown = await shownNumber(page.getByTestId("context-figure"));
    const estimate = await shownNumber(page.getByTestId("context-total"));
    const backend = await bonsai.call<{ tokens: number; agentTokens: number }>("getContextPreview", { sessionId, leafId: id });
    expect(inspector, `${kind} ${id}: inspector vs What the model sees`).toBe(shown);
    expect(shown, `${kind} ${id}: the backend's display figure`).toBe(backend.agentTokens);
    expect(inspectorEstimate, `${kind} ${id}: the estimate, second`).toBe(estimate);
    expect(estimate).toBe(backend.tokens);
    const context = shown;
    expect(Number(await page.getByTestId("context-chart").getAttribute("data-last-tokens"))).toBe(estimate);
    if (id !== leafId) {
      await expect(page.getByTestId("context-from")).toContainText(`From ${id}`);
    }
    if (kind === "compaction") {
      // the compaction node says "before → after": after is this same figure
      await page.getByTestId("view-tree").click();
      await page.getByTestId("tab-inspect").click();
      const band = page.getByTestId(`tree-node-${id}`).getByTestId("compaction-tokens-before");
      await expect(band).toContainText(`→ ${compactTokens(context)} tok`);
      // before: the tokensBefore the file records, named in the tooltip
      const entry = await bonsai.call<{ entry: { tokensBefore: number } }>("getEntry", { sessionId, entryId: id });
      await expect(band).toHaveText(`${compactTokens(entry.entry.tokensBefore)} → ${compactTokens(context)} tok`);
      await expect(band).toHaveAttribute("title", new RegExp(`before: ${entry.entry.tokensBefore.toLocaleString("en")} tokens, as the agent recorded it`, "u"));
      await page.getByTestId("view-transcript").click();
    }
    await page.getByTestId("tab-inspect").click();
  }

  // What the model sees follows the selection; "Back to the leaf" returns there
  await page.getByTestId("view-tree").click();
  await page.getByTestId("tab-context").click();
  await expect(page.getByTestId("context-back-to-leaf")).toBeVisible();
  await screenshot(page, testInfo, "context-from-selected-light");
  await page.getByTestId("context-back-to-leaf").click();
  await expect(page.getByTestId("context-view")).toHaveAttribute("data-leaf-id", leafId);
  await expect(page.getByTestId("context-from")).toContainText("From the leaf");
  const atLeaf = await shownNumber(page.getByTestId("context-figure"));
  // the session list leads with the same figure
  await expect(page.getByTestId("session-item").filter({ hasText: "Figures fixture" }).getByTestId("session-tokens")).toHaveText(compactTokens(atLeaf));
  await setTheme(page, "dark");
  await page.setViewportSize({ width: 1024, height: 800 });
  await screenshot(page, testInfo, "figures-leaf-dark-1024");
  await setTheme(page, "light");

  // the Compact panel and the dry run start from the same figure
  await page.getByTestId("tab-compact").click();
  await expect(page.getByTestId("compaction-plan")).toBeVisible();
  expect(await shownNumber(page.getByTestId("plan-context"))).toBe(atLeaf);
  await expect(page.getByTestId("plan-shade")).toBeVisible();
  expect(await longDashedSides(page.getByTestId("plan-shade"))).toEqual([]);
  await page.getByTestId("compaction-dry-run").click();
  await expect(page.getByTestId("dry-run-result")).toBeVisible({ timeout: 30_000 });
  expect(await shownNumber(page.getByTestId("dry-run-before"))).toBe(atLeaf);
  expect(await shownNumber(page.getByTestId("dry-run-after"))).toBeLessThan(atLeaf);
  await expect(page.getByTestId("plan-shade")).toContainText("the dry run summarizes this");
  await screenshot(page, testInfo, "dry-run-shade-light");
});

test("pruning reports the context sent before → after, and the stored output it hides apart", async ({ app: page, bonsai }, testInfo) => {
  const file = await generatedSessionFile(testInfo, "Prune figures", { entries: 400, seed: 9, compactionInterval: 0, branchProbability: 0, contentScale: 4 });
  await importAndOpen(page, file, "Prune figures");
  const sessionId = (await page.getByTestId("session-view").getAttribute("data-session-id"))!;
  await page.getByTestId("tab-prune").click();
  await expect(page.getByTestId("prune-figures")).toBeVisible();
  const before = await shownNumber(page.getByTestId("prune-context-before"));
  const after = await shownNumber(page.getByTestId("prune-context-after"));
  expect(after).toBeLessThanOrEqual(before);
  await expect(page.getByTestId("prune-bytes")).toHaveText(/\d+(\.\d)? (KB|MB)/u);
  await page.getByTestId("tab-context").click();
  expect(await shownNumber(page.getByTestId("context-figure"))).toBe(before);
  const estimateBefore = await shownNumber(page.getByTestId("context-total"));
  await page.getByTestId("tab-prune").click();
  const stops = await shownNumber(page.getByTestId("prune-stops-seeing"));
  expect(stops).toBeGreaterThan(0);
  await screenshot(page, testInfo, "prune-panel-light");
  await page.getByTestId("prune-apply").click();
  await expect(page.getByTestId("notification").filter({ hasText: "Pruned" })).toContainText(`the model stops seeing about ${stops.toLocaleString("en")} tokens (${before.toLocaleString("en")} → ${after.toLocaleString("en")})`);
  // what the page shows after is the figure the panel said, and the estimate dropped by what the model stops seeing
  await page.getByTestId("tab-context").click();
  await expect.poll(async () => shownNumber(page.getByTestId("context-total"))).toBe(estimateBefore - stops);
  expect(await shownNumber(page.getByTestId("context-figure"))).toBe(after);
  const preview = await bonsai.call<{ tokens: number; agentTokens: number }>("getContextPreview", { sessionId });
  expect(preview).toMatchObject({ tokens: estimateBefore - stops, agentTokens: after });
});
