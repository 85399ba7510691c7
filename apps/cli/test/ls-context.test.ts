/**
 * `bonsai ls` gives each session what the model sees from its leaf, read for the whole list at once
 * (StoreReader.getLeafContextFigures): for several stored sessions — compactions, replies with and
 * without a usage, branches, a session without any message — each row's figure is the one `bonsai
 * context SESSION_ID` leads with.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = path.join(root, "apps/cli/bin/bonsai.cjs");
let dir = "";

function run(...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd: dir, env: { ...process.env, BONSAI_DB: path.join(dir, "data", "bonsai.db"), BONSAI_DEBUG: "", HOME: dir } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build.mjs"), "cli"], { encoding: "utf8", cwd: root });
  if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-ls-context-"));
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("bonsai ls: each session's context figure", () => {
  it("equals the figure bonsai context gives each session", () => {
    const folder = path.join(dir, "sessions");
    mkdirSync(folder, { recursive: true });
    const shapes = [
      { entries: 900, seed: 31, compactionInterval: 250, branchProbability: 0.1 },
      { entries: 400, seed: 32, compactionInterval: 0 },
      { entries: 700, seed: 33, compactionInterval: 120, contentScale: 0.3, branchProbability: 0.2 },
    ];
    shapes.forEach((options, i) => writeFileSync(path.join(folder, `s${i}.jsonl`), sessionToJsonl(generateSession(options))));
    // a session of a header and a model change only: no message, nothing seen
    const header = { type: "session", version: 3, id: "empty-context", timestamp: "2026-12-01T00:00:00.000Z", cwd: "/w" };
    const change = { type: "model_change", id: "m1", parentId: null, timestamp: "2026-12-01T00:00:01.000Z", provider: "p", modelId: "m" };
    writeFileSync(path.join(folder, "empty.jsonl"), `${JSON.stringify(header)}\n${JSON.stringify(change)}\n`);
    expect(run("import", folder).code).toBe(0);

    const listed = JSON.parse(run("ls", "--json").stdout) as { id: string; contextTokens: number }[];
    expect(listed.length).toBe(4);
    const figures = listed.map((s) => {
      const context = JSON.parse(run("context", s.id, "--json").stdout) as { contextTokens: number };
      return { id: s.id, ls: s.contextTokens, context: context.contextTokens };
    });
    for (const f of figures) expect(f.ls, f.id).toBe(f.context);
    // real figures: three sessions see something, the one without a message nothing
    expect(figures.filter((f) => f.ls > 0).length).toBe(3);
    // the text listing's CONTEXT column shows the same figures
    const text = run("ls").stdout;
    for (const f of figures) expect(text).toMatch(new RegExp(`^${f.id}\\s.*\\s${f.ls < 1000 ? f.ls : `${(f.ls / 1000).toFixed(1)}K`}\\s`, "mu"));
  });
});
