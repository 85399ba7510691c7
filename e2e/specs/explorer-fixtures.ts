/**
 * Support for the explorer specs: one `bonsai serve` per worker on a temporary data folder (it
 * can be restarted on the same folder), one loopback OpenAI-compatible model server per worker,
 * generated sessions written into the test's output folder, and small page helpers.
 */
import { test as base, expect } from "@playwright/test";
import type { Locator, Page, TestInfo } from "@playwright/test";
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { generateSession, startMockOpenAiServer, writeSessionJsonl } from "@bonsai/testkit";
import type { GeneratedSession, GenerateSessionOptions, MockOpenAiServer } from "@bonsai/testkit";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const cli = path.join(repoRoot, "apps/cli/bin/bonsai.mjs");

/** A `bonsai serve` child process on a data folder. */
export class BonsaiServer {
  url = "";
  private child: ChildProcess | null = null;
  constructor(readonly dataDir: string) {}

  async start(): Promise<void> {
    const child = spawn(process.execPath, [cli, "serve", "--no-open", "--port", "0", "--data-dir", this.dataDir], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, OPENAI_API_KEY: "" },
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

type WorkerFixtures = { bonsai: BonsaiServer; model: MockOpenAiServer };
type TestFixtures = { app: Page };

export const test = base.extend<TestFixtures, WorkerFixtures>({
  bonsai: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-e2e-explorer-"));
      const server = new BonsaiServer(dataDir);
      await server.start();
      await use(server);
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: "worker" },
  ],
  model: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startMockOpenAiServer({ models: ["mock-model"] });
      await use(server);
      await server.close();
    },
    { scope: "worker" },
  ],
  app: async ({ page, bonsai }, use) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(bonsai.url);
    await expect(page.getByTestId("import-button")).toBeVisible();
    await use(page);
    expect(errors, "uncaught errors in the page").toEqual([]);
  },
});

export { expect };

/** Writes a generated session (with its own title) into the test's output folder. */
export async function generatedSessionFile(
  testInfo: TestInfo,
  title: string,
  options: GenerateSessionOptions,
  edit?: (session: GeneratedSession) => void,
): Promise<string> {
  const session = generateSession(options);
  session.header.title = title;
  edit?.(session);
  const file = testInfo.outputPath(`${title.replace(/\W+/gu, "-")}.jsonl`);
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

/** Points the app at the loopback model server (preferences pane), with an API key. */
export async function useLoopbackModel(page: Page, model: MockOpenAiServer): Promise<void> {
  await page.getByTestId("open-preferences").click();
  await setPreference(page, "model.baseUrl", model.baseUrl);
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
