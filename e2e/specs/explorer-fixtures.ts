/**
 * Support for the explorer specs, on top of the shell's fixtures (support/fixtures.ts): a loopback
 * OpenAI-compatible model server per worker, a restartable `bonsai serve` for the specs that need
 * a restart on the same data folder, generated sessions written into the test's output folder,
 * and small page helpers.
 */
import { test as shellTest, expect, runShownHostCommand } from "../support/fixtures";
import { CLI, REPO_ROOT } from "../support/paths";
import type { Locator, Page, TestInfo, TestType } from "@playwright/test";
import { spawn } from "node:child_process";
import * as path from "node:path";
import type { ChildProcess } from "node:child_process";
import { generateSession, startMockOpenAiServer, writeSessionJsonl } from "@bonsai/testkit";
import type { GeneratedSession, GenerateSessionOptions, MockOpenAiServer } from "@bonsai/testkit";

/**
 * A `bonsai serve` child process on a data folder that can be restarted on the same folder (without
 * --port it listens on the port of its last run there, with the same token: an open tab reconnects).
 */
export class BonsaiServer {
  url = "";
  private child: ChildProcess | null = null;
  constructor(
    readonly dataDir: string,
    private readonly env: Record<string, string> = {},
  ) {}

  async start(): Promise<void> {
    const child = spawn(process.execPath, [CLI, "serve", "--no-open", "--data-dir", this.dataDir], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, OPENAI_API_KEY: "", ...this.env },
    });
    this.child = child;
    let out = "";
    this.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bonsai serve did not print its address within 30 s:\n${out}`)), 30_000);
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/u.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1] as string);
        }
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.on("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`bonsai serve exited with ${code}:\n${out}`));
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }
}

/**
 * The shell's fixtures (a fresh `bonsai serve` and the app page per test) plus a loopback model
 * server per worker and a check that the page threw nothing.
 */
type ShellTestArgs = typeof shellTest extends TestType<infer T, infer _W> ? T : never;
type ShellWorkerArgs = typeof shellTest extends TestType<infer _T, infer W> ? W : never;

export const test: TestType<ShellTestArgs & { pageErrors: void }, ShellWorkerArgs & { model: MockOpenAiServer }> = shellTest.extend<
  { pageErrors: void },
  { model: MockOpenAiServer }
>({
  model: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startMockOpenAiServer({ models: ["mock-model"] });
      await use(server);
      await server.close();
    },
    { scope: "worker" },
  ],
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await use();
      expect(errors, "uncaught errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Writes a generated session (with its own title) into the test's output folder. */
export async function generatedSessionFile(
  testInfo: TestInfo,
  title: string,
  options: GenerateSessionOptions,
  edit?: (session: GeneratedSession) => void,
  /** where to write it (default the test's output folder); an agents' session folder to import it by path */
  folder?: string,
): Promise<string> {
  const session = generateSession(options);
  session.header.title = title;
  edit?.(session);
  const name = `${title.replace(/\W+/gu, "-")}.jsonl`;
  const file = folder === undefined ? testInfo.outputPath(name) : path.join(folder, name);
  await writeSessionJsonl(file, session);
  return file;
}

/** Imports a file through the app's import button and opens the session with that title. */
export async function importAndOpen(page: Page, file: string, title: string): Promise<void> {
  await page.getByTestId("import-input").setInputFiles(file);
  const item = page.getByTestId("session-item").filter({ hasText: title });
  await expect(item).toBeVisible({ timeout: 30_000 });
  await item.click();
  await expect(page.getByTestId("explorer")).toBeVisible();
  await expect(page.locator(".react-flow__node").first()).toBeVisible({ timeout: 30_000 });
}

/**
 * Points the app at the loopback model server: the model's address is a host setting, so it is set
 * with the command the preferences pane shows (run on the host), then the model id and an API key
 * in the pane.
 */
export async function useLoopbackModel(page: Page, model: MockOpenAiServer): Promise<void> {
  await page.getByTestId("open-preferences").click();
  runShownHostCommand((await page.getByTestId("pref-model.baseUrl-command").textContent()) ?? "", [model.baseUrl]);
  // the pane reads the settings again when it opens
  await page.getByTestId("preferences-close").click();
  await page.getByTestId("open-preferences").click();
  await expect(page.getByTestId("pref-model.baseUrl")).toHaveValue(model.baseUrl);
  await setPreference(page, "model.model", "mock-model");
  await page.getByTestId("pref-apiKey").fill("sk-loopback");
  await page.getByTestId("pref-apiKey-save").click();
  await expect(page.getByTestId("pref-apiKey-status")).toContainText("A key is available");
  await page.getByTestId("preferences-close").click();
}

/** Types a value into a text preference and waits until it is saved. */
export async function setPreference(page: Page, key: string, value: string): Promise<void> {
  const input = page.getByTestId(`pref-${key}`);
  if ((await input.inputValue()) === value) return;
  await input.fill(value);
  await input.press("Enter");
  await expect(page.getByTestId(`pref-${key}-saved`)).toBeVisible();
}

/** The tree node of an entry (rendered only while inside the viewport). */
export function treeNode(page: Page, entryId: string): Locator {
  return page.getByTestId(`tree-node-${entryId}`);
}

/** The current leaf's node. */
export function leafNode(page: Page): Locator {
  return page.locator('[data-leaf="true"]');
}

export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await testInfo.attach(name, { body: await page.screenshot(), contentType: "image/png" });
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
}

/** Selects an entry through the Transcript (every entry of the active path is a row there), then shows the tree again. */
export async function selectViaTranscript(page: Page, entryId: string): Promise<void> {
  await page.getByTestId("view-transcript").click();
  const row = page.locator(`[data-testid="transcript-message"][data-entry-id="${entryId}"]`);
  await row.locator(".bz-tr-who").click();
  await expect(row).toHaveAttribute("aria-current", "true");
}

/** The number shown in an element ("12,345" -> 12345). */
export async function shownNumber(locator: Locator): Promise<number> {
  const text = (await locator.textContent()) ?? "";
  return Number(text.replace(/[^\d]/gu, ""));
}

/** Goes to an entry by its id through the command palette (the tree shows it, selected). */
export async function goToEntry(page: Page, entryId: string): Promise<void> {
  await page.keyboard.press("Control+k");
  await page.getByTestId("palette-input").fill(entryId);
  await expect(page.getByTestId("palette-item").first()).toHaveAttribute("data-command", `go-to-${entryId}`);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId(`tree-node-${entryId}`)).toHaveAttribute("data-selected", "true");
}

/** Sets the theme with the header's toggle (system -> light -> dark), waiting for each change. */
export async function setTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  const toggle = page.getByTestId("theme-toggle");
  for (let i = 0; i < 3; i++) {
    const now = await toggle.getAttribute("data-theme-setting");
    if (now === theme) break;
    await toggle.click();
    await expect(toggle).not.toHaveAttribute("data-theme-setting", now ?? "");
  }
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
}

/**
 * The sides of an element drawn dashed or dotted that are longer than `maxPx`. A dashed border is
 * dashed along its whole length for every raster tile, so one thousands of pixels long (a bracket or
 * plan beside a 100,000-entry path) stalls the page while it pans: long sides are drawn otherwise.
 */
export async function longDashedSides(locator: Locator, maxPx = 200): Promise<string[]> {
  return locator.evaluate((el: HTMLElement, max) => {
    const style = getComputedStyle(el);
    const sides = { top: el.offsetWidth, bottom: el.offsetWidth, left: el.offsetHeight, right: el.offsetHeight };
    return Object.entries(sides)
      .filter(([side, length]) => length > max && parseFloat(style.getPropertyValue(`border-${side}-width`)) > 0 && /dashed|dotted/.test(style.getPropertyValue(`border-${side}-style`)))
      .map(([side, length]) => `${side} (${length} px)`);
  }, maxPx);
}
