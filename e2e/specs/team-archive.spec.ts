/**
 * The explorer on a team archive: `bonsai team serve` on a private PostgreSQL, sessions pushed with
 * `bonsai push` by two people of two projects, then the page in Chromium signed in with a member's
 * token. She sees her project's sessions (with project and person), opens one (tree, inspector,
 * transcript, what the model sees), searches, exports HTML; the other project's sessions appear
 * nowhere; a call that would change a session is refused in one sentence. A mistyped or revoked
 * token is refused in words, with the token field again; a search ranks adjacent words first.
 * Screenshots in both themes at 1024 and 1400 px wide (.test-results/team-archive).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startPostgres, type PostgresCluster } from "@bonsai/testkit/postgres";
import { CLI, REPO_ROOT, SHARED_FIXTURES } from "../support/paths";

const PI = path.join(SHARED_FIXTURES, "real/pi");
const ALPHA = ["codyborders__yinshi__34_1a3af3e9ec_3_full.jsonl", "raquezha__pi.dev__96_2b1009dcd7_2_full.jsonl"];
const BETA = ["mholtzscher__pi-herdr-subagents__1_full.jsonl"];
const SCREENSHOTS = path.join(REPO_ROOT, ".test-results/team-archive");

let cluster: PostgresCluster | undefined;
let serve: ChildProcess | undefined;
let origin = "";
let work = "";
let database = "";
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

function bonsai(args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`bonsai ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

function headerId(file: string): string {
  return (JSON.parse(fs.readFileSync(file, "utf8").split("\n")[0] as string) as { id: string }).id;
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.skip(!fs.existsSync(PI), `${PI} is not present next to the checkout`);
  test.setTimeout(180_000);
  cluster = await startPostgres();
  database = cluster.createDatabase("archive_e2e");
  work = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-team-e2e-"));
  const admin = (...args: string[]) => bonsai(["team", ...args, "--database", database]);
  admin("project", "add", "alpha");
  admin("project", "add", "beta");
  for (const [name, role] of [["amy", "member"], ["ben", "member"], ["root", "admin"]] as const) tokens[name] = (JSON.parse(admin("user", "add", name, "--role", role, "--json")) as { token: string }).token;
  admin("grant", "amy", "alpha");
  admin("grant", "ben", "beta");

  // the server, on a free port, serving the built page
  // the page's list loads one session at a time here, so that two sessions are two pages
  serve = spawn(process.execPath, [CLI, "team", "serve", "--database", database, "--listen", "127.0.0.1:0", "--list-page", "1"], { stdio: ["ignore", "pipe", "pipe"] });
  origin = await new Promise<string>((resolve, reject) => {
    let err = "";
    serve?.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1] as string);
    });
    serve?.once("exit", () => reject(new Error(`team serve exited: ${err}`)));
  });
  serve.stdout?.resume();

  // each person pushes from their own machine (their own data folder)
  for (const [who, project, files] of [["amy", "alpha", ALPHA], ["ben", "beta", BETA]] as const) {
    const dataDir = path.join(work, who);
    for (const f of files) {
      bonsai(["import", path.join(PI, f), "--data-dir", dataDir]);
      ids[f] = `${project}/${who}/${headerId(path.join(PI, f))}`; // the page names a session by its key: project, person and id
    }
    bonsai(["push", "--all", "--to", origin, "--project", project, "--data-dir", dataDir], { BONSAI_TOKEN: tokens[who] as string });
  }
  // ben pushes a copy of one of amy's session files into beta: one session id in two projects
  const benData = path.join(work, "ben");
  bonsai(["import", path.join(PI, ALPHA[0] as string), "--data-dir", benData]);
  bonsai(["push", headerId(path.join(PI, ALPHA[0] as string)), "--to", origin, "--project", "beta", "--data-dir", benData], { BONSAI_TOKEN: tokens.ben as string });
});

test.afterAll(async () => {
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve?.once("exit", resolve));
    serve.kill("SIGTERM");
    await exited;
  }
  cluster?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/**
 * On an archive no control that would change a session, a setting or the host shows enabled: the
 * toolbar, the inspector, the side panels, the tree's double-click, the shortcuts, the palette and
 * the preferences. (A node other than the leaf is selected.)
 */
async function expectNoWriteControls(page: Page): Promise<void> {
  for (const id of ["follow-toggle", "toolbar-compact", "inspector-switch", "inspector-compact", "inspector-restore", "label-input", "undo-button", "import-button", "session-menu-rename", "session-menu-remove"]) {
    await expect(page.getByTestId(id), id).toHaveCount(0);
  }
  // the tree's double-click and the S key would open the branch switch
  await page.locator(".react-flow__node").first().dblclick();
  await page.getByTestId("tree-canvas").focus();
  await page.keyboard.press("s");
  await expect(page.getByTestId("switch-dialog")).toHaveCount(0);
  // the side panels: plans are shown, their actions disabled, saying why
  await page.getByTestId("tab-compact").click();
  for (const id of ["compaction-run", "compaction-dry-run"]) {
    await expect(page.getByTestId(id)).toBeDisabled();
    await expect(page.getByTestId(id)).toHaveAttribute("title", "read-only: a team archive copy");
  }
  await shoot(page, "compact-panel");
  await page.getByTestId("tab-prune").click();
  for (const id of ["prune-apply", "prune-restore-all"]) {
    if ((await page.getByTestId(id).count()) > 0) await expect(page.getByTestId(id)).toBeDisabled();
  }
  await page.getByTestId("tab-inspect").click();
  // the palette lists no command that would change something
  await page.keyboard.press("Control+k");
  for (const words of ["switch branch", "rename", "remove", "follow", "import", "label", "undo"]) {
    await page.getByTestId("palette-input").fill(words);
    await expect(page.getByTestId("palette-item"), words).toHaveCount(0);
  }
  await page.getByTestId("palette-input").fill("export html");
  await expect(page.getByTestId("palette-item")).toHaveCount(1);
  await page.keyboard.press("Escape");
  // the preferences are shown, not changed; what-if's Save is disabled
  await page.getByTestId("tree-canvas").focus();
  await page.keyboard.press(",");
  await expect(page.getByTestId("prefs-read-only")).toBeVisible();
  const settings = page.locator("[data-testid=preferences] > fieldset:not([data-testid=whatif])");
  expect(await settings.count()).toBeGreaterThan(2);
  for (const set of await settings.all()) await expect(set).toHaveAttribute("title", "read-only: a team archive copy");
  for (const control of await settings.locator("input, select, textarea, button").all()) await expect(control).toBeDisabled();
  await expect(page.getByTestId("pref-apiKey")).toHaveCount(0);
  await expect(page.getByTestId("whatif-save")).toBeDisabled();
  await shoot(page, "preferences");
  await page.getByTestId("preferences-close").click();
  // the theme changes for this page (a viewer's choice, not the archive's settings)
  await page.getByTestId("theme-toggle").click();
  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("data-theme-setting", "light");
  await page.getByTestId("theme-toggle").click();
  await page.getByTestId("theme-toggle").click();
  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("data-theme-setting", "system");
  // a dropped session file is not imported (nor sent to be refused): one sentence says why
  const dataTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['{"type":"session"}\n'], "dropped.jsonl", { type: "application/x-ndjson" }));
    return dt;
  });
  await page.locator(".app").dispatchEvent("dragover", { dataTransfer });
  await expect(page.getByText("Drop .jsonl session files to import them")).toHaveCount(0);
  await page.locator(".app").dispatchEvent("drop", { dataTransfer });
  await expect(page.getByTestId("notification").last()).toHaveText(/Nothing is imported here \(read-only: a team archive copy\)/);
  await page.getByTestId("notification-dismiss").last().click();
  // "Download for pi" stays
  await expect(page.getByTestId("continue-in-pi").first()).toBeEnabled();
}

async function shoot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of [1024, 1400]) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height: 820 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate((s) => document.documentElement.setAttribute("data-theme", s), scheme);
      await page.waitForTimeout(250); // layout and the tree's glide settle before the picture
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}-${scheme}.png`) });
    }
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

test("a member reads her project's sessions on the archive, and nothing of another project", async ({ page }) => {
  test.setTimeout(120_000);
  const frames: string[] = [];
  page.on("websocket", (ws) => ws.on("framereceived", (f) => frames.push(String(f.payload))));
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));

  // signing in: the archive's address, then the token typed into the page (kept for the tab)
  await page.goto(`${origin}/`);
  await expect(page.getByTestId("token-sign-in")).toBeVisible();
  // the archive's page asks for the archive's token, not for `bonsai serve`'s address
  await expect(page.getByTestId("token-sign-in-words")).toHaveText("Sign in to this team archive with your token (your archive's admin gives you one)");
  await expect(page.getByTestId("session-list-unavailable")).toHaveText("Your projects' sessions appear here once you sign in.");
  await expect(page.getByTestId("import-button")).toHaveCount(0);
  await shoot(page, "sign-in");
  await page.getByTestId("token-input").fill(tokens.amy as string);
  await page.getByTestId("token-sign-in-button").click();
  await expect(page.getByTestId("archive-badge")).toHaveText("Archive · amy");
  await expect(page.getByTestId("import-button")).toHaveCount(0);

  // her project's sessions, a page at a time (one here), with project and person; the other project's nowhere
  const rows = page.getByTestId("session-item");
  const showMore = page.getByTestId("session-list-show-more");
  await expect(rows).toHaveCount(1);
  await expect(showMore).toHaveText("Show more (1 loaded)");
  await shoot(page, "list-more");
  await showMore.click();
  await expect(rows).toHaveCount(ALPHA.length);
  await expect(showMore).toHaveCount(0);
  for (const f of ALPHA) await expect(page.locator(`[data-testid="session-item"][data-session-id="${ids[f]}"]`)).toContainText("alpha · pushed by amy");
  await expect(page.locator(`[data-session-id="${ids[BETA[0] as string]}"]`)).toHaveCount(0);
  await expect(page.getByTestId("archive-project-filter")).toBeVisible();
  // the filters apply in the archive: the filtered list pages too
  await page.getByTestId("archive-person-filter").selectOption("amy");
  await expect(rows).toHaveCount(1);
  await showMore.click();
  await expect(rows).toHaveCount(ALPHA.length);
  const second = ids[ALPHA[1] as string] as string;
  await page.getByTestId("session-filter").fill(second.slice("alpha/amy/".length, "alpha/amy/".length + 12));
  await expect(page.getByTestId("session-list")).toHaveAttribute("data-archive-filter", second.slice("alpha/amy/".length, "alpha/amy/".length + 12));
  await expect(rows).toHaveCount(1);
  await expect(page.locator(`[data-testid="session-item"][data-session-id="${second}"]`)).toHaveCount(1);
  await expect(showMore).toHaveCount(0);
  await page.getByTestId("session-filter").fill("");
  await expect(page.getByTestId("session-list")).toHaveAttribute("data-archive-filter", "");
  await expect(rows).toHaveCount(1);
  await showMore.click();
  await expect(rows).toHaveCount(ALPHA.length);
  await shoot(page, "list");

  // open one: the tree, the inspector, the transcript, what the model sees
  const opened = ids[ALPHA[0] as string] as string;
  await page.locator(`[data-testid="session-item"][data-session-id="${opened}"]`).click();
  await expect(page.getByTestId("tree-status")).toHaveAttribute("data-entry-count", "33");
  await page.getByTestId("zoom-fit").click();
  await page.locator(".react-flow__node").first().click();
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-entry-id", /.+/);
  await shoot(page, "tree");
  await expectNoWriteControls(page);
  await page.getByTestId("tab-context").click();
  await page.getByTestId("context-back-to-leaf").click();
  await expect(page.getByTestId("context-message").first()).toBeVisible();
  await expect(page.getByTestId("read-only-notice")).toContainText("pushed to alpha by amy");
  await page.getByTestId("view-transcript").click();
  await expect(page.getByTestId("transcript-message").first()).toBeVisible();
  await shoot(page, "transcript");

  // search: her sessions' words are found, the other project's are not
  await page.getByTestId("open-search").click();
  await page.getByTestId("search-input").fill("yinshi");
  await page.getByTestId("search-input").press("Enter");
  await expect(page.getByTestId("search-hit").first()).toBeVisible();
  // each hit names the project it was pushed to and who pushed it
  await expect(page.getByTestId("search-hit-archive").first()).toHaveText("· alpha · amy");
  await shoot(page, "search");
  await page.getByTestId("search-input").fill("herdr");
  await page.getByTestId("search-input").press("Enter");
  await expect(page.getByTestId("search-hit")).toHaveCount(0);
  await page.keyboard.press("Escape");

  // HTML export: a download of the session she opened
  await page.getByTestId("view-tree").click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-html").click()]);
  const file = path.join(work, "export.html");
  await download.saveAs(file);
  const html = fs.readFileSync(file, "utf8");
  expect(html).toContain("<html");
  expect(html).toContain("yinshi");

  // a write call is refused in one sentence (the page's own connection, as a script in it would)
  const refusal = await page.evaluate(async () => {
    const ws = new WebSocket(`${location.origin.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(sessionStorage.getItem("bonsai.token") ?? "")}`);
    await new Promise((resolve) => ws.addEventListener("open", resolve));
    const answer = new Promise<string>((resolve) => ws.addEventListener("message", (e) => resolve(String(e.data))));
    ws.send(JSON.stringify({ t: "call", id: 1, method: "deleteSession", params: { sessionId: "x" } }));
    return JSON.parse(await answer) as { result: { ok: boolean; error: { code: string; message: string } } };
  });
  expect(refusal.result).toEqual({ ok: false, error: { code: "forbidden", message: "a team archive is read-only: it cannot delete sessions" } });

  // nothing the page received names the other project's session or its words
  const beta = ids[BETA[0] as string] as string;
  expect(frames.filter((f) => f.includes(beta) || f.includes("herdr") || f.includes('"beta"'))).toEqual([]);
  expect(problems).toEqual([]);
});

test("the connect page (the desktop app's 'Connect to Team Archive…') opens the archive signed in", async ({ page }) => {
  await page.goto(`${origin}/#connect-archive`);
  await page.getByTestId("connect-archive-url").fill(`${origin}/wherever`);
  await page.getByTestId("connect-archive-token").fill("two words");
  await page.getByTestId("connect-archive-submit").click();
  await expect(page.getByTestId("connect-archive-error")).toHaveText("a token has no spaces in it");
  await shoot(page, "connect");
  await page.getByTestId("connect-archive-token").fill(tokens.ben as string);
  await page.getByTestId("connect-archive-submit").click();
  await expect(page.getByTestId("archive-badge")).toHaveText("Archive · ben");
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.getByTestId("session-item")).toHaveCount(BETA.length);
  await expect(page.getByTestId("session-project")).toHaveText(["beta"]);
});

test("an admin opens each of two sessions of one id, by its project", async ({ page }) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  const twin = headerId(path.join(PI, ALPHA[0] as string));
  await page.goto(`${origin}/?token=${encodeURIComponent(tokens.root as string)}`);
  await expect(page.getByTestId("archive-badge")).toHaveText("Archive · root");
  await page.getByTestId("session-filter").fill(twin.slice(0, 13));
  // the archive applies the filter (a moment after the typing): its first page, then the next
  await expect(page.getByTestId("session-list")).toHaveAttribute("data-archive-filter", twin.slice(0, 13));
  const rows = page.getByTestId("session-item");
  await expect(rows).toHaveCount(1);
  await page.getByTestId("session-list-show-more").click();
  await expect(rows).toHaveCount(2);
  for (const [project, who] of [["alpha", "amy"], ["beta", "ben"], ["alpha", "amy"]] as const) {
    await page.locator(`[data-testid="session-item"][data-session-id="${project}/${who}/${twin}"]`).click();
    await expect(page.getByTestId("read-only-notice")).toContainText(`pushed to ${project} by ${who}`);
    await expect(page.getByTestId("tree-status")).toHaveAttribute("data-entry-count", "33");
    // a later read (the entry's content) answers on the same session
    await page.locator(".react-flow__node").nth(1).click();
    await expect(page.getByTestId("inspector")).toHaveAttribute("data-loaded", "true");
  }
  await shoot(page, "twin");
  expect(problems).toEqual([]);
});

test("a mistyped or revoked token is refused in words, with the token field again and no Import; a reload asks again", async ({ page }) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  const refused = async (): Promise<void> => {
    await expect(page.getByTestId("token-refused")).toHaveText("This token was refused.");
    await expect(page.getByTestId("token-input")).toBeVisible();
    await expect(page.getByTestId("token-sign-in-words")).toHaveText("Sign in to this team archive with your token (your archive's admin gives you one)");
    await expect(page.getByTestId("import-button")).toHaveCount(0);
    await expect(page.getByText("reconnecting")).toHaveCount(0);
  };
  const mistyped = `${(tokens.amy as string).slice(0, -4)}AAAA`;
  await page.goto(`${origin}/?token=${encodeURIComponent(mistyped)}`);
  await refused();
  await shoot(page, "token-refused");
  // a reload asks for a token (the refused one is not tried again)
  await page.reload();
  await expect(page.getByTestId("token-sign-in")).toBeVisible();
  await expect(page.getByTestId("token-refused")).toHaveCount(0);
  await expect(page.getByTestId("import-button")).toHaveCount(0);

  // a token that worked, then revoked: refused the same way at the next load
  const dan = (JSON.parse(bonsai(["team", "user", "add", "dan", "--json", "--database", database])) as { token: string }).token;
  await page.getByTestId("token-input").fill(dan);
  await page.getByTestId("token-sign-in-button").click();
  await expect(page.getByTestId("archive-badge")).toHaveText("Archive · dan");
  bonsai(["team", "token", "revoke", "--user", "dan", "--database", database]);
  await page.reload();
  await refused();
  // the token field recovers the tab
  await page.getByTestId("token-input").fill(tokens.amy as string);
  await page.getByTestId("token-sign-in-button").click();
  await expect(page.getByTestId("archive-badge")).toHaveText("Archive · amy");
  expect(problems).toEqual([]);
});

test("a search on the archive finds the entry where the words stand next to each other first", async ({ page }) => {
  test.setTimeout(90_000);
  const admin = (...args: string[]) => bonsai(["team", ...args, "--database", database]);
  admin("project", "add", "gamma");
  const cy = (JSON.parse(admin("user", "add", "cy", "--json")) as { token: string }).token;
  admin("grant", "cy", "gamma");
  const filler = (n: number): string => Array.from({ length: n }, (_, i) => `filler${i}`).join(" ");
  // ts_rank alone ranks "far" first: both words often, in a short message
  const texts = [
    ["far", `quokka quokka quokka quokka ${filler(30)} wombat wombat wombat wombat`],
    ["near", `${filler(40)} the quokka met a wombat today ${filler(40)}`],
    ["adjacent", `${filler(60)} a quokka wombat appeared ${filler(60)}`],
  ] as const;
  const header = { type: "session", version: 3, id: "closeness-e2e", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/src/closeness" };
  const lines = [header, ...texts.map(([id, text], i) => ({ type: "message", id, parentId: i === 0 ? null : texts[i - 1]?.[0], timestamp: `2026-01-01T00:00:0${i + 1}.000Z`, message: { role: "user", content: text, timestamp: i + 1 } }))];
  const file = path.join(work, "closeness.jsonl");
  fs.writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  const dataDir = path.join(work, "cy");
  bonsai(["import", file, "--data-dir", dataDir]);
  bonsai(["push", "--all", "--to", origin, "--project", "gamma", "--data-dir", dataDir], { BONSAI_TOKEN: cy });

  await page.goto(`${origin}/?token=${encodeURIComponent(cy)}`);
  await expect(page.getByTestId("archive-badge")).toHaveText("Archive · cy");
  await page.getByTestId("open-search").click();
  await page.getByTestId("search-input").fill("quokka wombat");
  await page.getByTestId("search-input").press("Enter");
  await expect(page.getByTestId("search-hit")).toHaveCount(3);
  const order = await page.getByTestId("search-hit").evaluateAll((hits) => hits.map((h) => h.getAttribute("data-entry-id")));
  expect(order).toEqual(["adjacent", "near", "far"]);
  await shoot(page, "search-closeness");
});
