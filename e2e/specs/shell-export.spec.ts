/** Export downloads the open session as JSONL in the current format (browser mode: a download). */
import * as fs from "node:fs";
import * as path from "node:path";
import { test, expect } from "../support/fixtures";
import { sharedFixture } from "../support/paths";

const fixture = sharedFixture("large-session.jsonl");

test("export the open session as JSONL", async ({ app, bonsai, target }, testInfo) => {
  test.skip(!fixture, "../shared/fixtures/large-session.jsonl is not present next to the checkout");
  test.skip(target === "electron", "Electron asks where to save with a native dialog");
  // setup through the backend (the import UI has its own spec): a copy in an agents' session folder, then the page picks it up
  const copy = path.join(bonsai.sessionsDir, "large-session.jsonl");
  fs.copyFileSync(fixture!, copy);
  await bonsai.call("importSessions", { paths: [copy] });
  await expect(app.getByTestId("session-item")).toHaveCount(1);
  await app.getByTestId("session-item").click();
  await expect(app.getByTestId("session-view")).toBeVisible();

  const [download] = await Promise.all([app.waitForEvent("download"), app.getByTestId("export-button").click()]);
  expect(download.suggestedFilename()).toBe("large-session.jsonl");
  const file = testInfo.outputPath("exported.jsonl");
  await download.saveAs(file);
  const lines = fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "");
  const source = fs.readFileSync(fixture!, "utf8").split("\n").filter((l) => l.trim() !== "");
  expect(lines).toHaveLength(source.length);
  const header = JSON.parse(lines[0]!) as { type: string; version: number };
  expect(header).toMatchObject({ type: "session", version: 3 });
  // every entry now has an id and a parent link (v1 -> v3 migration)
  for (const line of lines.slice(1)) expect(JSON.parse(line)).toHaveProperty("id");
});
