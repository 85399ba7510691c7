import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { N } from "./support";
import { harness, type Harness } from "./harness";
import { SessionLookupError } from "@bonsai/store";
import { InlinePlanner, WorkerPlanner } from "../src/index";

const here = path.dirname(fileURLToPath(import.meta.url));
const workerUrl = new URL("../src/worker/compaction-worker.ts", import.meta.url);
const fixturesDir = path.resolve(here, "../../../../shared/fixtures");
const fixtures = ["before-compaction.jsonl", "large-session.jsonl"].map((f) => path.join(fixturesDir, f));
const haveFixtures = fixtures.every((f) => fs.existsSync(f));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("compaction worker pool", () => {
  it("plans in a worker thread over its own read connection; the result equals the inline plan", async () => {
    h = await harness();
    h.add(N.U(4000), N.AT(["read", { path: "a.ts" }]), N.T("r"), N.U(4000), N.A(400));
    const pool = new WorkerPlanner({ workerUrl, dbPath: path.join(h.dir, "bonsai.db"), size: 2 });
    try {
      const settings = { ...h.engine.getSettings().compaction, keepRecentTokens: 1000 };
      const request = { sessionId: h.sessionId, leafId: h.store.getLeaf(h.sessionId), settings, withBranchEntries: true };
      const [a, b] = await Promise.all([pool.plan(request), pool.plan(request)]);
      expect(a.preparation?.firstKeptEntryId).toBe(h.store.getPath(h.sessionId)[3]?.id);
      expect(a.preparation?.fileOps.read).toEqual(new Set(["a.ts"]));
      expect(a.serialized?.history).toContain('[Assistant tool calls]: read(path="a.ts")');
      expect(a.branchEntries).toHaveLength(5);
      expect(b).toEqual(a);
      // a typed error thrown on the worker arrives as its own class, with its kind
      const missing = await pool.plan({ ...request, sessionId: "missing" }).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(SessionLookupError);
      expect(missing).toMatchObject({ kind: "not_found", message: "Session missing not found" });
    } finally {
      await pool.close();
    }
  });

  it("computes a session's amnesia report in a worker thread; the result equals the inline report", async () => {
    h = await harness();
    const [, read] = h.add(N.U("Look at the parser please."), N.AT(["read", { path: "src/parse.ts" }]), N.T("code"), N.U(4000), N.A(400));
    const kept = h.add(N.U("Keep going with the plan."), N.A(40));
    h.add(N.C("## Goal\nparser", (kept[0] as { id: string }).id), N.U("Next step now please."), N.AT(["read", { path: "src/parse.ts" }]), N.T("code"));
    const pool = new WorkerPlanner({ workerUrl, dbPath: path.join(h.dir, "bonsai.db"), size: 1 });
    try {
      const request = { sessionId: h.sessionId, leafId: h.store.getLeaf(h.sessionId) };
      const report = await pool.amnesia(request);
      expect(report.compactions[0]?.findings.map((f) => [f.kind, f.entryIds[0]])).toEqual([["reread", read?.id]]);
      expect(report).toEqual(await new InlinePlanner(h.store).amnesia(request));
    } finally {
      await pool.close();
    }
  });

  it("an engine with a worker pool compacts while the main side stays the single writer", async () => {
    const base = await harness();
    await base.engine.close();
    const { createEngine } = await import("../src/index");
    const engine = createEngine({ store: base.store, worker: { url: workerUrl, dbPath: path.join(base.dir, "bonsai.db") } });
    h = { ...base, engine };
    h.add(N.U(4000), N.A(400), N.U(4000), N.A(400));
    engine.updateSettings({ compaction: { keepRecentTokens: 1000 } });
    const r = await engine.compact(h.sessionId);
    expect(r.entry?.type).toBe("compaction");
    expect(r.result.details).toMatchObject({ summarizer: "offline" });
    expect(h.store.getPath(h.sessionId).at(-1)?.id).toBe(r.entry?.id);
  });
});

describe.skipIf(!haveFixtures)("offline summarizer on the shared fixtures", () => {
  for (const file of fixtures) {
    it(`compacts ${path.basename(file)} offline, deterministically, with sections and file tags`, async () => {
      h = await harness();
      // the store writes compactions through to the source file: work on a copy, never on ../shared
      const copy = path.join(h.dir, path.basename(file));
      fs.copyFileSync(file, copy);
      fs.chmodSync(copy, 0o644);
      const report = await h.store.importFile(copy);
      const sid = report.sessionId as string;
      expect(sid).toBeTruthy();
      const first = await h.engine.compact(sid, { dryRun: true });
      const again = await h.engine.compact(sid, { dryRun: true });
      expect(again.result).toEqual(first.result);
      const { summary, shortSummary, details } = first.result;
      expect(details).toMatchObject({ summarizer: "offline" });
      expect(summary).toMatch(/## Goal\n/);
      expect(summary).toContain("## Next Steps");
      expect(summary).toMatch(/<(read|modified)-files>\n/);
      expect(shortSummary?.startsWith("I ")).toBe(true);
      const committed = await h.engine.commitCompaction(sid, first.result, first.leafId);
      expect(committed.entry?.summary).toBe(summary);
    });
  }
});

if (!haveFixtures) {
  it.skip(`fixture tests skipped: ${fixturesDir} is absent`, () => undefined);
}
