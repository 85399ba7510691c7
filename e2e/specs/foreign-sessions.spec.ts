/**
 * Claude Code and Codex sessions in the app (browser mode): real files of ../shared/fixtures/real
 * (read there at test time, never copied into the repository) imported through the file input,
 * listed with their agent, drawn with their compaction nodes, shown read-only (the write actions
 * offer "Continue in pi"), continued in pi (a new pi session in pi's folder, opened, writable), and
 * exported as one offline HTML page. Screenshots in both themes go to .test-results/foreign.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "@playwright/test";
import { test, expect } from "../support/fixtures";
import { REPO_ROOT, sharedFixture } from "../support/paths";
import { setTheme } from "./explorer-fixtures";

const REAL = sharedFixture("real");
const REAL_FOREIGN = REAL
  ? ["claude-code", "codex"].flatMap((agent) =>
      fs
        .readdirSync(path.join(REAL, agent))
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => path.join(REAL, agent, f)),
    )
  : [];
const CLAUDE = sharedFixture("real/claude-code/entireio__cli__cd_95adddad32_0_full.jsonl");
const CODEX = sharedFixture("real/codex/EntityProcess__agentv__00_34f597b72d_1_full.jsonl");
const SCREENSHOTS = path.join(REPO_ROOT, ".test-results/foreign");
/** pi's agent folder for the served backend: "Continue in pi" writes its copies below it */
const PI_AGENT = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-e2e-pi-agent-"));
/** Claude Code's folder for the served backend (a growing transcript is imported from there) */
const CLAUDE_HOME = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-e2e-claude-"));
test.afterAll(() => {
  fs.rmSync(PI_AGENT, { recursive: true, force: true });
  fs.rmSync(CLAUDE_HOME, { recursive: true, force: true });
});
test.use({ serveEnv: { PI_CODING_AGENT_DIR: PI_AGENT, CLAUDE_CONFIG_DIR: CLAUDE_HOME } });

async function importFile(app: Page, file: string): Promise<void> {
  await app.getByTestId("import-input").setInputFiles(file);
  await expect(app.getByTestId("import-result")).toContainText("Imported 1 of 1 file");
}

async function shoot(app: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const theme of ["light", "dark"] as const) {
    await setTheme(app, theme);
    await app.screenshot({ path: path.join(SCREENSHOTS, `${name}-${theme}.png`) });
  }
}

test.describe("Claude Code and Codex sessions in the app", () => {
  test.skip(!CLAUDE || !CODEX, "the real Claude Code / Codex files of ../shared/fixtures/real are not present next to the checkout");
  test.skip(({ target }) => target === "electron", "imports through the browser's file input; the Electron app takes the same backend calls");

  test("a Claude Code file: listed with its agent, drawn with its compactions, read-only with Continue in pi offered", async ({ app }) => {
    await importFile(app, CLAUDE!);
    const item = app.getByTestId("session-item");
    await expect(item.getByTestId("session-agent")).toHaveText("Claude Code");
    await expect(item.getByTestId("session-compaction-count")).toHaveText("3");
    await expect(item.getByTestId("session-read-only")).toBeVisible();
    await item.click();
    await expect(app.getByTestId("read-only-notice")).toContainText("Bonsai never writes Claude Code sessions");
    await expect(app.getByTestId("tree-status")).toHaveAttribute("data-entry-count", "890");

    // the compactions are nodes of the tree: before is the preTokens the file records, after what the model sees from the compaction
    await app.getByTestId("zoom-fit").click();
    const compactions = app.locator('.react-flow__node [data-kind="compaction"]');
    await expect(compactions).toHaveCount(3);
    await expect(compactions.getByTestId("compaction-tokens-before")).toHaveText(["156.7K → 2.8K tok", "155.2K → 2.6K tok", "155.4K → 3.8K tok"]);
    await expect(compactions.getByTestId("compaction-tokens-before").first()).toHaveAttribute("title", /before: 156,699 tokens, as the agent recorded it \(tokensBefore\); after: [\d,]+ tokens, what the model sees from the compaction/u);

    // the inspector shows a compaction with Claude Code's own summary and the lines it came from
    await compactions.first().click();
    await expect(app.getByTestId("inspector-compaction")).toBeVisible();
    await expect(app.getByTestId("inspector-summary")).not.toBeEmpty();
    await expect(app.getByTestId("inspector-source-lines")).toContainText("The agent's file, lines");
    await expect(app.getByTestId("label-input")).toHaveCount(0);
    await expect(app.getByTestId("inspector-switch")).toBeVisible();

    // what the model sees from the leaf: Claude Code's last summary, then what follows
    await app.getByTestId("tab-context").click();
    // it follows the selection (the first compaction): back to the leaf
    await app.getByTestId("context-back-to-leaf").click();
    const context = app.getByTestId("context-view");
    await expect(context.getByTestId("context-message").first()).toContainText("This session is being continued from a previous conversation");
    // the context chart along the path, its three compactions marked
    await expect(app.getByTestId("chart-compaction")).toHaveCount(3);
    await shoot(app, "claude-code-context");

    // actions that would write offer the pi copy instead
    await expect(app.getByTestId("composer").getByTestId("read-only-action")).toContainText("A prompt would change this Claude Code session");
    await app.getByTestId("tab-compact").click();
    await expect(app.getByTestId("compaction-panel").getByTestId("read-only-action")).toContainText("Compacting would change this Claude Code session");
    await expect(app.getByTestId("compaction-run")).toBeDisabled();
    await shoot(app, "claude-code-read-only");

    // switching branches moves Bonsai's leaf only: no summary is offered
    await compactions.first().click();
    await app.getByTestId("inspector-switch").click();
    await expect(app.getByTestId("switch-summarize")).toBeDisabled();
    await expect(app.getByTestId("switch-read-only")).toBeVisible();
    await app.getByTestId("switch-cancel").click();
  });

  test("a Codex file continued in pi: a new pi session in pi's folder, opened here and writable", async ({ app }) => {
    await importFile(app, CODEX!);
    await expect(app.getByTestId("session-agent")).toHaveText("Codex");
    await app.getByTestId("session-item").click();
    await app.getByTestId("zoom-fit").click();
    await expect(app.locator('.react-flow__node [data-kind="compaction"]')).toHaveCount(2);
    // the leaf is Codex's last line, a token count: metadata, shown with the line it came from
    await app.locator('.react-flow__node [data-leaf="true"]').click();
    await expect(app.getByTestId("inspector-agent-event")).toContainText("event_msg/token_count");
    await expect(app.getByTestId("inspector-source-lines")).toHaveAttribute("open", "");
    await shoot(app, "codex-read-only");

    await app.getByTestId("read-only-notice").getByTestId("continue-in-pi").click();
    const notice = app.getByTestId("pi-copy-notice");
    await expect(notice).toBeVisible();
    const file = (await notice.getByTestId("pi-copy-file").textContent()) ?? "";
    expect(file.startsWith(path.join(PI_AGENT, "sessions", "--"))).toBe(true);
    expect(fs.existsSync(file)).toBe(true);
    const header = JSON.parse(fs.readFileSync(file, "utf8").split("\n")[0] as string) as { type: string; version: number };
    expect(header).toMatchObject({ type: "session", version: 3 });
    await expect(app.locator(".notification")).toContainText(`written to ${file}, where pi resumes it`);

    // the copy is a pi session: listed without an agent badge, and the write actions are there
    await expect(app.getByTestId("session-item")).toHaveCount(2);
    await expect(app.locator('[data-testid="session-item"][aria-current="true"] [data-testid="session-agent"]')).toHaveCount(0);
    await expect(app.getByTestId("read-only-notice")).toHaveCount(0);
    await expect(app.getByTestId("composer-input")).toBeVisible();
    await app.getByTestId("zoom-fit").click();
    await expect(app.locator('.react-flow__node [data-kind="compaction"]')).toHaveCount(2);
    await shoot(app, "codex-pi-copy");
  });

  test("a Claude Code transcript that grows is followed: its new lines show up in the open tree", async ({ app, bonsai }) => {
    const lines = fs.readFileSync(CLAUDE!, "utf8").split("\n");
    const file = path.join(CLAUDE_HOME, "projects", "-Users-soph-Work-entire-devenv-cli", "6113e919-67d3-417b-b525-c63700228d19.jsonl");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${lines.slice(0, 700).join("\n")}\n`);
    const imported = await bonsai.call<{ results: { ok: boolean; error: string | null }[] }>("importSessions", { paths: [file] });
    expect(imported.results[0]?.ok, imported.results[0]?.error ?? "").toBe(true);
    await app.reload();
    await app.getByTestId("session-item").click();
    const status = app.getByTestId("tree-status");
    const before = Number(await status.getAttribute("data-entry-count"));
    // Claude Code appends the rest of the session (its third compaction among it)
    fs.appendFileSync(file, lines.slice(700).join("\n"));
    await expect(status).toHaveAttribute("data-entry-count", "890", { timeout: 30_000 });
    expect(before).toBeLessThan(890);
    await app.getByTestId("zoom-fit").click();
    await expect(app.locator('.react-flow__node [data-kind="compaction"]')).toHaveCount(3);
  });

  test("the HTML export of the open session is one offline page with its tree and transcript", async ({ app, context }, testInfo) => {
    await importFile(app, CLAUDE!);
    await app.getByTestId("session-item").click();
    await expect(app.getByTestId("read-only-notice")).toBeVisible();
    const [download] = await Promise.all([app.waitForEvent("download"), app.getByTestId("export-html").click()]);
    expect(download.suggestedFilename()).toMatch(/\.html$/);
    const out = testInfo.outputPath("claude-code.html");
    await download.saveAs(out);

    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(out).href);
    await expect(page.locator("nav.tree-panel .row.compaction")).toHaveCount(3);
    await expect(page.locator(".transcript section.compaction")).toHaveCount(3);
    expect(requests).toEqual([pathToFileURL(out).href]);
    await page.close();
  });

  test("every real Claude Code and Codex file imports and draws with its compactions", async ({ app, bonsai }) => {
    test.setTimeout(180_000);
    // all 14 picked at once in the file input (uploaded in chunks, imported one by one)
    await app.getByTestId("import-input").setInputFiles(REAL_FOREIGN);
    await expect(app.getByTestId("import-result")).toContainText(`Imported ${REAL_FOREIGN.length} of ${REAL_FOREIGN.length} files`, { timeout: 120_000 });
    await app.getByTestId("import-result").getByRole("button", { name: "Dismiss" }).click();
    const { sessions } = await bonsai.call<{ sessions: { id: string; agent: string; compactionCount: number; entryCount: number }[] }>("listSessions");
    expect(sessions).toHaveLength(REAL_FOREIGN.length);
    // the compactions of the README's tables: 3 + 1 + 1 + 2 + 1 in Claude Code files, 2 + 1 in Codex ones
    expect(sessions.reduce((n, s) => n + s.compactionCount, 0)).toBe(11);
    for (const s of sessions) {
      expect(["claude-code", "codex"]).toContain(s.agent);
      await app.locator(`[data-testid="session-item"][data-session-id="${s.id}"]`).click();
      await expect(app.getByTestId("tree-status")).toHaveAttribute("data-entry-count", String(s.entryCount));
      await expect(app.getByTestId("read-only-notice")).toBeVisible();
      await app.getByTestId("zoom-fit").click();
      await expect(app.locator('.react-flow__node [data-kind="compaction"]'), s.id).toHaveCount(s.compactionCount);
    }
  });

  test("a file no reader knows gets one sentence in the import result, listed once", async ({ app }, testInfo) => {
    const other = testInfo.outputPath("events.jsonl");
    fs.writeFileSync(other, '{"level":"info","msg":"started"}\n');
    await app.getByTestId("import-input").setInputFiles(other);
    const result = app.getByTestId("import-result");
    await expect(result).toContainText("Imported 0 of 1 file");
    await expect(result.locator(".error")).toHaveCount(1);
    await expect(result.locator(".error")).toContainText("events.jsonl: not a session file: it is JSON lines but no session format Bonsai knows");
    await expect(result.locator(".warning")).toHaveCount(0);
  });
});
