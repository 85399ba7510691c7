/**
 * `bonsai import` runs from its own bundle (dist/import.cjs, apps/cli/src/import-command-line.ts):
 * bin/bonsai.cjs loads it (through bin/cached-bundle.cjs, with the code cache the build wrote)
 * instead of the command line's, with the same answers and error policy;
 * help and mistakes in the arguments go to the command line. Run on the built CLI, as a user runs
 * it, with real files.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, buildCli, root, run, runListingBuiltins, runListingModules, topLevelCacheSize } from "./list-modules";

/** what an import loads: the bin, the bundle loader and the import's bundle */
const IMPORT_MODULES = ["bin/bonsai.cjs", "bin/cached-bundle.cjs", "dist/import.cjs"];

let dir = "";
let file = "";
let db = "";

beforeAll(() => {
  buildCli();
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-import-bundle-"));
  db = path.join(dir, "bonsai.db");
  const session = generateSession({ entries: 300, seed: 21 });
  file = path.join(dir, "s.jsonl");
  writeFileSync(file, sessionToJsonl(session));
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("bonsai import", () => {
  it("runs from dist/import.cjs alone, with its code cache: a new file, lines appended to it, the file unchanged", () => {
    const first = runListingModules(dir, db, "import", file);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^imported +.*s\.jsonl -> \S+: 300 entries \(format v3\)\n1 files: 1 imported\n$/);
    expect(first.modules).toEqual(IMPORT_MODULES);
    expect(first.bundleCaches).toEqual({ "dist/import.cjs": "accepted" });
    const text = readFileSync(file, "utf8");
    const last = JSON.parse(text.trim().split("\n").at(-1) as string) as { id: string };
    appendFileSync(file, `${JSON.stringify({ type: "message", id: "appended1", parentId: last.id, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: "one more", timestamp: 1 } })}\n`);
    const appended = runListingModules(dir, db, "import", file, "--json");
    expect(appended.code, appended.stderr).toBe(0);
    expect((JSON.parse(appended.stdout) as { reports: { status: string; entriesAdded: number }[] }).reports[0]).toMatchObject({ status: "appended", entriesAdded: 1 });
    expect(appended.modules).toEqual(IMPORT_MODULES);
    expect(run(dir, db, "import", file).stdout).toMatch(/1 files: 1 unchanged/);
  });

  it("starts without running Node's ES module loader, from the CommonJS entry; bin/bonsai.mjs runs the same entry", () => {
    const target = path.join(dir, "loader.jsonl");
    writeFileSync(target, sessionToJsonl(generateSession({ entries: 40, seed: 4 })));
    /** `bonsai import target` from `entry`, with Node's modules it loaded after its start */
    const importFrom = (entry: string, database: string) => runListingBuiltins(dir, path.join(dir, database), ["import", target, "--json"], { entry });
    // what Node loads to resolve, load and run an ES module (node:module alone loads the loader's
    // class, not these)
    const esmLoader = (builtins: string[]): string[] => builtins.filter((m) => /^NativeModule internal\/(modules\/esm\/(resolve|load|translators|module_job)|fs\/promises)$/.test(m));
    const fromCjs = importFrom(bin, "loader-cjs.db");
    expect(fromCjs.code, fromCjs.stderr).toBe(0);
    expect((JSON.parse(fromCjs.stdout) as { reports: { status: string; entriesAdded: number }[] }).reports[0]).toMatchObject({ status: "imported", entriesAdded: 40 });
    expect(esmLoader(fromCjs.builtins)).toEqual([]);
    // the ES module entry (an older path to the command) loads the loader, and answers the same
    const fromEsm = importFrom(path.join(root, "apps/cli/bin/bonsai.mjs"), "loader-esm.db");
    expect(fromEsm.code, fromEsm.stderr).toBe(0);
    expect(esmLoader(fromEsm.builtins)).not.toEqual([]);
    const report = (stdout: string): unknown => {
      const { reports } = JSON.parse(stdout) as { reports: Record<string, unknown>[] };
      return reports.map(({ status, sessionId, entriesAdded, issues }) => ({ status, sessionId, entriesAdded, issues }));
    };
    expect(report(fromEsm.stdout)).toEqual(report(fromCjs.stdout));
  });

  it("has a warm code cache from the build: it holds the functions of an appended import, beyond the top level's", () => {
    const warm = readFileSync(path.join(root, "apps/cli/dist/import.cjs.cache")).length;
    expect(warm).toBeGreaterThan(topLevelCacheSize("import") * 1.2);
  });

  it("reports its mistakes as the command line does (one line, exit status 1), from its own bundle", () => {
    const missing = runListingModules(dir, db, "import", path.join(dir, "nosuchfile.jsonl"));
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toBe(`bonsai: ${path.join(dir, "nosuchfile.jsonl")}: no such file or directory\n`);
    expect(missing.modules).toEqual(IMPORT_MODULES);
    const notSession = path.join(dir, "notes.jsonl");
    writeFileSync(notSession, '{"hello":"world"}\n');
    const refused = run(dir, db, "import", notSession);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^bonsai: .*notes\.jsonl: /);
  });

  it("gives help and mistakes in the arguments to the command line, which answers them as before", () => {
    const help = runListingModules(dir, db, "import", "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: bonsai import /);
    expect(help.modules).toContain("dist/bonsai.mjs");
    const bogus = runListingModules(dir, db, "import", "--bogus");
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toBe("bonsai: unknown option --bogus for bonsai import (see bonsai import --help)\n");
    expect(bogus.modules).toContain("dist/bonsai.mjs");
  });

  it("takes Node's modules by require(): loading it builds no ES module namespace (node:fs's would load its file streams)", () => {
    const loader = pathToFileURL(path.join(root, "apps/cli/bin/cached-bundle.cjs")).href;
    const streams = "process.moduleLoadList.includes('NativeModule internal/fs/streams')";
    const script = `import { loadBundle } from ${JSON.stringify(loader)}; loadBundle(${JSON.stringify(path.join(root, "apps/cli/dist/import.cjs"))}); const before = ${streams}; await import("node:fs"); console.log(JSON.stringify([before, ${streams}]));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    // not loaded by the bundle; loaded by an ES module import of node:fs
    expect(JSON.parse(r.stdout)).toEqual([false, true]);
  });

  it("is one module: nothing but Node's modules at its start, no dynamic import, no engine or server code", () => {
    const meta = JSON.parse(readFileSync(path.join(root, "apps/cli/dist/import.meta.json"), "utf8")) as { outputs: Record<string, { imports: { path: string; kind: string }[]; inputs: Record<string, unknown> }> };
    const out = meta.outputs["apps/cli/dist/import.cjs"];
    if (!out) throw new Error("apps/cli/dist/import.cjs is not an output of the import build");
    expect(out.imports.filter((i) => !/^(node:)?(fs|path|util|module|url|os|crypto|events|buffer)$/.test(i.path))).toEqual([]);
    const inputs = Object.keys(out.inputs);
    for (const needed of ["apps/cli/src/import-command-line.ts", "apps/cli/src/commands/import.ts", "packages/store/src/sqlite-session-store.ts"]) expect(inputs).toContain(needed);
    expect(inputs.filter((i) => /^packages\/(engine|backend|llm|ipc)\/|^apps\/cli\/src\/cli\.ts$/.test(i))).toEqual([]);
    // each Node module is taken once by require(), not copied property by property at every import of it
    const text = readFileSync(path.join(root, "apps/cli/dist/import.cjs"), "latin1");
    expect(text).toContain('require("node:fs")');
    expect(text).not.toMatch(/__toESM\(require\("(node:)?[a-z_/]+"\)/);
  });
});
