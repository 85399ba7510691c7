/**
 * A long session on a team archive, opened in the page by a server process that holds no copy of
 * it: the answer PostgreSQL keeps (gzipped) is named by the WebSocket's result-at frame and
 * downloaded beside it, gzip-encoded (ipc's LargeAnswers); the tree shows every entry, and the
 * inspector reads the leaf. Two `bonsai team serve` processes on one private PostgreSQL: the one
 * that takes the push keeps the answer, the other holds the page's WebSocket. Between them and the
 * page a load balancer with no session affinity (support/split-proxy.ts) sends every plain request,
 * the downloads included, to the first: the answer and an export prepared by one process are
 * downloaded from the other.
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { expect, test } from "@playwright/test";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import { startPostgres } from "@bonsai/testkit/postgres";
import { addMember, bonsaiCli as bonsai, startTeamServe, type TeamServe } from "../support/archive";
import { startSplitProxy, type SplitProxy } from "../support/split-proxy";

/** long enough for its answer to be kept (page-open.ts KEEP_FROM_ENTRIES) and downloaded (LARGE_ANSWER_CHARS) */
const ENTRIES = 6000;

/** a `team serve` process, and what it has printed so far */
async function serve(database: string): Promise<TeamServe & { log: () => string }> {
  let out = "";
  const started = await startTeamServe(database, (chunk) => void (out += chunk.toString()));
  return { ...started, log: () => out };
}

test("a long session opens from the kept answer, downloaded gzipped beside the WebSocket from any process, as its export", async ({ page }) => {
  test.setTimeout(180_000);
  const cluster = await startPostgres();
  const servers: ChildProcess[] = [];
  let proxy: SplitProxy | undefined;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-team-long-"));
  try {
    const database = cluster.createDatabase("team_long_session");
    const token = addMember(database, "alpha", "amy");
    const [pushing, other] = await Promise.all([serve(database), serve(database)]);
    servers.push(pushing.child, other.child);

    const file = path.join(work, "long.jsonl");
    const session = generateSession({ entries: ENTRIES, seed: 11 });
    session.header.title = "Long archived session";
    await writeSessionJsonl(file, session);
    const dataDir = path.join(work, "data");
    bonsai(["import", file, "--data-dir", dataDir]);
    bonsai(["push", "--all", "--to", pushing.url, "--project", "alpha", "--data-dir", dataDir], { BONSAI_TOKEN: token });
    const kept = (): string => spawnSync("psql", [database, "-tAc", "SELECT max(entry_count) FROM opened_sessions"], { encoding: "utf8" }).stdout.trim();
    await expect.poll(kept, { timeout: 120_000, intervals: [250] }).toBe(String(ENTRIES));

    // the page's socket reaches `other` (no copy: it answers from the kept answer); its requests reach `pushing`
    proxy = await startSplitProxy(other.url, pushing.url);
    await page.goto(`${proxy.url}/?token=${encodeURIComponent(token)}`);
    await page.getByTestId("session-item").filter({ hasText: "Long archived session" }).click();
    const status = page.getByTestId("tree-status");
    await expect(status).toHaveAttribute("data-entry-count", String(ENTRIES), { timeout: 30_000 });
    await expect(page.locator(".react-flow__node").first()).toBeVisible();

    // the answer came as a download, compressed, and is whole
    const downloads = await page.evaluate(() =>
      (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((e) => e.name.includes("/answer/")).map((e) => ({ encoded: e.encodedBodySize, decoded: e.decodedBodySize, status: e.responseStatus })),
    );
    expect(downloads).toHaveLength(1);
    expect(downloads[0]?.status).toBe(200);
    expect(downloads[0]?.encoded).toBeGreaterThan(0);
    expect(downloads[0]?.decoded).toBeGreaterThan(256 * 1024);
    expect(downloads[0]?.encoded).toBeLessThan((downloads[0]?.decoded ?? 0) / 2);
    // named on `other`'s socket, downloaded from `pushing`
    await expect.poll(() => /WS openSession ok [\d.]+ms amy/u.test(other.log())).toBe(true);
    await expect.poll(() => /GET \/answer\/… 200 [\d.]+ms amy/u.test(pushing.log())).toBe(true);
    expect(other.log()).not.toContain("GET /answer/");

    // the inspector reads the leaf in that process (from PostgreSQL until its copy is made)
    const leafId = (await status.getAttribute("data-leaf-id")) ?? "";
    await page.getByTestId(`tree-node-${leafId}`).click();
    await expect(page.getByTestId("inspector")).toHaveAttribute("data-loaded", "true", { timeout: 30_000 });

    // an export prepared by `other` is downloaded from `pushing`, which makes it again from its own copy
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-button").click()]);
    const lines = fs.readFileSync((await download.path()) as string, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(ENTRIES + 1);
    expect((JSON.parse(lines[0] as string) as { type: string }).type).toBe("session");
    expect(pushing.log()).toMatch(/GET \/download\/\S+ 200 [\d.]+ms/u);
    expect(proxy.counts.upgrades).toBeGreaterThan(0);
  } finally {
    await proxy?.close();
    for (const child of servers) child.kill("SIGTERM");
    cluster.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
});
