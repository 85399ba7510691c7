/**
 * From the browser page (the token holder), nothing reaches the host: calls made by the page's own
 * script over its own WebSocket are refused with typed errors, the preferences pane shows the host
 * settings read-only with the command that changes them, and exports are downloads. Part of the
 * fault suite (with packages/backend/test/capabilities.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "@playwright/test";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import { test, expect } from "../support/fixtures";

/** One call from inside the page, over a WebSocket it opens with its token: the call's result envelope. */
async function callFromPage(page: Page, method: string, params: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  return page.evaluate(
    ([m, p]) =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(sessionStorage.getItem("bonsai.token") ?? "")}`);
        ws.onerror = () => reject(new Error("the page could not connect"));
        ws.onopen = () => ws.send(JSON.stringify({ t: "call", id: 1, method: m, params: p }));
        ws.onmessage = (e) => {
          const frame = JSON.parse(String(e.data)) as { t: string; id: number; result: unknown };
          if (frame.t !== "result" || frame.id !== 1) return;
          ws.close();
          resolve(frame.result as { ok: boolean });
        };
      }),
    [method, params] as const,
  );
}

test("the page cannot run code, read or write host files, name a variable or change a host folder", async ({ app: page, bonsai, target }, testInfo) => {
  test.skip(target === "electron", "browser mode: the desktop app goes through its main process's dialogs (unit-tested)");
  const outside = testInfo.outputPath("outside");
  fs.mkdirSync(outside, { recursive: true });
  fs.writeFileSync(path.join(outside, "secret.txt"), "password=hunter2\n");
  const refusals: [string, unknown, string][] = [
    ["setSettings", { patch: { hooksDir: path.join(bonsai.dataDir, "uploads") } }, "forbidden"],
    ["setSettings", { patch: { sessionDirs: ["/"] } }, "forbidden"],
    ["setSettings", { patch: { model: { apiKeyEnv: "HOME" } } }, "forbidden"],
    ["setSettings", { patch: { model: { baseUrl: "http://127.0.0.1:9/v1" } } }, "forbidden"],
    ["setSettings", { patch: { compaction: { remoteEndpoint: "http://127.0.0.1:9/x" } } }, "forbidden"],
    ["importSessions", { paths: [path.join(outside, "secret.txt")] }, "forbidden"],
    ["importSessions", { paths: ["/etc/passwd"] }, "forbidden"],
    ["importSessions", { paths: [path.join(bonsai.sessionsDir, "..", "outside")] }, "forbidden"],
    ["exportSession", { sessionId: "x", format: "jsonl", path: path.join(outside, "written.jsonl") }, "invalid_payload"],
    ["importSessions", { files: [{ name: "x.jsonl", content: "{}" }] }, "invalid_payload"],
    ["pickSettingsFolder", { field: "hooksDir" }, "unavailable"],
    ["importFromDialog", {}, "unavailable"],
    ["saveSessionAs", { sessionId: "x", format: "jsonl" }, "unavailable"],
  ];
  for (const [method, params, code] of refusals) {
    const r = await callFromPage(page, method, params);
    expect(r.ok, `${method} ${JSON.stringify(params)}`).toBe(false);
    expect(r.error?.code, `${method} ${JSON.stringify(params)}: ${r.error?.message}`).toBe(code);
    expect(r.error?.message ?? "").not.toContain("hunter2");
  }
  const host = await callFromPage(page, "setSettings", { patch: { model: { apiKeyEnv: "HOME" } } });
  expect(host.error?.message).toContain(`bonsai config set model.apiKeyEnv NAME --data-dir ${bonsai.dataDir}`);
  expect(fs.readdirSync(outside)).toEqual(["secret.txt"]);

  // what the page may do still works: a session in an agents' folder imports, and exports as a download
  const file = path.join(bonsai.sessionsDir, "agent.jsonl");
  const session = generateSession({ entries: 20, seed: 3 });
  session.header.title = "Agent session";
  await writeSessionJsonl(file, session);
  const imported = await callFromPage(page, "importSessions", { paths: [file] });
  expect(imported).toMatchObject({ ok: true, value: { results: [{ ok: true }] } });
  await page.reload();
  await page.getByTestId("session-item").filter({ hasText: "Agent session" }).click();
  await expect(page.getByTestId("session-view")).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-button").click()]);
  expect(download.suggestedFilename()).toBe("agent.jsonl");
  const saved = testInfo.outputPath("downloaded.jsonl");
  await download.saveAs(saved);
  expect(fs.readFileSync(saved, "utf8").split("\n").filter(Boolean)).toHaveLength(21);
});

test("the preferences pane shows the host settings read-only, with the command that changes them", async ({ app: page, bonsai, target }, testInfo) => {
  test.skip(target === "electron", "the desktop app changes them through its own dialogs");
  await page.getByTestId("open-preferences").click();
  const note = page.getByTestId("prefs-host-note");
  await expect(note).toContainText("The browser page shows them but cannot change them");
  await expect(note).toContainText(path.join(bonsai.dataDir, "bonsai.db"));
  for (const [key, placeholder] of [
    ["hooksDir", "DIR"],
    ["sessionDirs", "DIR..."],
    ["model.apiKeyEnv", "NAME"],
    ["model.baseUrl", "URL"],
    ["compaction.remoteEndpoint", "URL"],
  ] as const) {
    await expect(page.getByTestId(`pref-${key}`)).toHaveAttribute("readonly", "");
    await expect(page.getByTestId(`pref-${key}-command`)).toHaveText(`bonsai config set ${key} ${placeholder} --data-dir ${bonsai.dataDir}`);
  }
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.getByTestId("preferences").evaluate((el) => el.scrollTo(0, 0));
    await page.screenshot({ path: testInfo.outputPath(`host-settings-top-${scheme}.png`) });
    await page.getByTestId("pref-hooksDir-row").scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`host-settings-folders-${scheme}.png`) });
  }
});
