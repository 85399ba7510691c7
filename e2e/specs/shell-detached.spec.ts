/**
 * A session whose source cannot be written (read-only file or folder, or write-through turned off)
 * keeps Bonsai's changes in the store only; the session list says so.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { test, expect } from "../support/fixtures";

test.use({ serveEnv: { BONSAI_NO_WRITE_THROUGH: "1" } });

test("a change to a session whose source is not written shows as kept in Bonsai only", async ({ app, bonsai }, testInfo) => {
  const file = path.join(bonsai.sessionsDir, "agent-session.jsonl");
  fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 40, seed: 11, compactionInterval: 0, branchProbability: 0 })));
  const before = fs.readFileSync(file);

  const imported = (await bonsai.call("importSessions", { paths: [file] })) as { results: { sessionId: string }[] };
  const sessionId = imported.results[0]!.sessionId;
  await app.reload();
  await expect(app.getByTestId("session-item")).toHaveCount(1);
  await expect(app.getByTestId("session-detached")).toHaveCount(0);

  const skeleton = (await bonsai.call("getSkeleton", { sessionId })) as { ids: string[] };
  await bonsai.call("setLabel", { sessionId, entryId: skeleton.ids[0]!, label: "start" });
  await app.reload();
  await expect(app.getByTestId("session-detached")).toBeVisible();
  expect(fs.readFileSync(file).equals(before)).toBe(true);
  await app.screenshot({ path: testInfo.outputPath("detached.png") });
});
