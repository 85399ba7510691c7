/**
 * The preferences pane: every setting changed through the UI (invalid input refused inline), the
 * host settings shown read-only with the command that changes them on the host (and changed that
 * way), the API key stored write-only, and everything still there after the server restarts.
 */
import type { Page } from "@playwright/test";
import * as fs from "node:fs";
import { runShownHostCommand } from "../support/fixtures";
import { BonsaiServer, expect, screenshot, test } from "./explorer-fixtures";

type Change = { key: string; kind: "text" | "list" | "bool" | "select"; value: string | boolean };
/** the settings that reach the host (HOST_SETTINGS of @bonsai/ipc) */
const HOST_KEYS = ["hooksDir", "sessionDirs", "model.apiKeyEnv", "model.baseUrl", "compaction.remoteEndpoint"];
const isHost = (c: Change) => HOST_KEYS.includes(c.key);

function changes(dir: (name: string) => string): Change[] {
  return [
    { key: "compaction.enabled", kind: "bool", value: false },
    { key: "compaction.reserveTokens", kind: "text", value: "12000" },
    { key: "compaction.keepRecentTokens", kind: "text", value: "15000" },
    { key: "compaction.autoContinue", kind: "bool", value: false },
    { key: "compaction.remoteEndpoint", kind: "text", value: "http://127.0.0.1:9/remote/summarize" },
    { key: "branchSummary.enabled", kind: "bool", value: true },
    { key: "branchSummary.reserveTokens", kind: "text", value: "8000" },
    { key: "retry.enabled", kind: "bool", value: false },
    { key: "retry.maxRetries", kind: "text", value: "5" },
    { key: "retry.baseDelayMs", kind: "text", value: "1500" },
    { key: "model.baseUrl", kind: "text", value: "http://127.0.0.1:9/v1" },
    { key: "model.model", kind: "text", value: "gpt-test-1" },
    { key: "model.fallbackModels", kind: "list", value: "fallback-a\nfallback-b" },
    { key: "model.contextWindow", kind: "text", value: "128000" },
    { key: "model.maxOutputTokens", kind: "text", value: "4096" },
    { key: "model.apiKeyEnv", kind: "text", value: "BONSAI_TEST_KEY" },
    { key: "hooksDir", kind: "text", value: dir("hooks") },
    { key: "sessionDirs", kind: "list", value: `${dir("sessions-a")}\n${dir("sessions-b")}` },
    { key: "theme", kind: "select", value: "dark" },
  ];
}

async function apply(page: Page, c: Change): Promise<void> {
  const input = page.getByTestId(`pref-${c.key}`);
  if (c.kind === "bool") await input.setChecked(c.value as boolean);
  else if (c.kind === "select") await input.selectOption(c.value as string);
  else {
    await input.fill(c.value as string);
    if (c.kind === "list") await input.blur();
    else await input.press("Enter");
  }
  await expect(page.getByTestId(`pref-${c.key}-saved`)).toBeVisible();
  await expect(page.getByTestId(`pref-${c.key}-error`)).toBeHidden();
}

async function check(page: Page, c: Change): Promise<void> {
  const input = page.getByTestId(`pref-${c.key}`);
  if (c.kind === "bool") {
    if (c.value) await expect(input).toBeChecked();
    else await expect(input).not.toBeChecked();
  } else await expect(input).toHaveValue(c.value as string);
}

// several flows (or two server starts) in one test: allow for a loaded CI machine
test.describe.configure({ timeout: 120_000 });

test("every preference is applied at once and survives a restart", async ({ page }, testInfo) => {
  const dir = (name: string) => {
    const d = testInfo.outputPath(name);
    fs.mkdirSync(d, { recursive: true });
    return d;
  };
  const server = new BonsaiServer(dir("data"));
  await server.start();
  try {
    await page.goto(server.url);
    await page.getByTestId("open-preferences").click();
    await expect(page.getByTestId("preferences")).toBeVisible();
    // the seed's defaults
    await expect(page.getByTestId("pref-compaction.reserveTokens")).toHaveValue("16384");
    await expect(page.getByTestId("pref-compaction.keepRecentTokens")).toHaveValue("20000");
    await expect(page.getByTestId("pref-branchSummary.enabled")).not.toBeChecked();

    // invalid values are refused inline and nothing is saved
    const reserve = page.getByTestId("pref-compaction.reserveTokens");
    await reserve.fill("-3");
    await reserve.press("Enter");
    await expect(page.getByTestId("pref-compaction.reserveTokens-error")).toHaveText("must be a whole number");
    await page.getByTestId("pref-model.contextWindow").fill("0");
    await page.getByTestId("pref-model.contextWindow").press("Enter");
    await expect(page.getByTestId("pref-model.contextWindow-error")).toHaveText("must be at least 1");
    await page.getByTestId("pref-retry.maxRetries").fill("500");
    await page.getByTestId("pref-retry.maxRetries").press("Enter");
    await expect(page.getByTestId("pref-retry.maxRetries-error")).toHaveText("must be at most 100");
    await screenshot(page, testInfo, "preferences-invalid");

    const all = changes(dir);
    // the settings that reach the host are read-only here, each with the command that changes it
    await expect(page.getByTestId("prefs-host-note")).toContainText("cannot change them");
    for (const c of all.filter(isHost)) {
      await expect(page.getByTestId(`pref-${c.key}`)).toHaveAttribute("readonly", "");
      await expect(page.getByTestId(`pref-${c.key}-command`)).toContainText(`bonsai config set ${c.key} `);
    }
    await screenshot(page, testInfo, "preferences-host-settings");
    for (const c of all.filter((x) => !isHost(x))) await apply(page, c);
    // on the host: the commands the pane shows
    for (const c of all.filter(isHost)) {
      const command = (await page.getByTestId(`pref-${c.key}-command`).textContent()) ?? "";
      runShownHostCommand(command, String(c.value).split("\n"));
    }
    await page.getByTestId("preferences-close").click();
    await page.getByTestId("open-preferences").click();
    for (const c of all.filter(isHost)) await check(page, c);
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await page.getByTestId("pref-apiKey").fill("sk-kept-across-restarts");
    await page.getByTestId("pref-apiKey-save").click();
    await expect(page.getByTestId("pref-apiKey-status")).toContainText("A key is available");
    await expect(page.getByTestId("pref-apiKey")).toHaveValue("");
    await screenshot(page, testInfo, "preferences-changed");

    await server.restart();
    await page.goto(server.url);
    await page.getByTestId("open-preferences").click();
    await expect(page.getByTestId("preferences")).toBeVisible();
    for (const c of all) await check(page, c);
    await expect(page.getByTestId("pref-apiKey-status")).toContainText("A key is available");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await screenshot(page, testInfo, "preferences-after-restart");
  } finally {
    await server.stop();
  }
});

test("themes: the system's by default, light or dark when chosen", async ({ app: page }, testInfo) => {
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const LIGHT = "rgb(251, 250, 247)";
  const DARK = "rgb(23, 25, 28)";
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(background).toBe(DARK); // "system" follows the OS
  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(background).toBe(LIGHT);
  await page.getByTestId("open-preferences").click();
  await page.getByTestId("pref-theme").selectOption("dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect.poll(background).toBe(DARK); // chosen dark wins over a light OS
  await screenshot(page, testInfo, "theme-dark");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.getByTestId("pref-theme").selectOption("light");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await expect.poll(background).toBe(LIGHT); // chosen light wins over a dark OS
});
