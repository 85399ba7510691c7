/**
 * bin/cached-bundle.cjs: the CLI's CommonJS bundles run with V8's code cache of their top level when
 * the cache was made for that very build, and run as usual (compiled from their text) when it was
 * not: another build of the same length, a damaged cache, none at all. Each load is a Node process
 * of its own, as a user's `bonsai` is.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import * as vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "./list-modules";

const loader = path.join(root, "apps/cli/bin/cached-bundle.cjs");
const MARK = "//# bonsaiBuild=";
let dir = "";

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-cached-bundle-"));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const HEAD = "(function (exports, require, module, __filename, __dirname, __bonsaiImportMeta) {";

/** a bundle as the build writes one: its text in the loader's wrapper, then the line naming the SHA-256 of those */
function writeBundle(file: string, answer: number): void {
  const text = `${HEAD}"use strict";\nexports.answer = ${answer};\nexports.url = __bonsaiImportMeta.url;\nexports.dir = __dirname;\nexports.strict = (function () { return this === undefined; })();\n\n})\n`;
  writeFileSync(file, `${text}${MARK}${createHash("sha256").update(text, "latin1").digest("hex")}\n`, "latin1");
}

/** loads `file` in a new process: its exports and the cache state the loader traced */
function load(file: string): { exports: Record<string, unknown>; cache: string } {
  const trace = path.join(dir, `trace-${Math.random().toString(36).slice(2)}.log`);
  const script = `import { loadBundle } from ${JSON.stringify(pathToFileURL(loader).href)}; process.stdout.write(JSON.stringify(loadBundle(${JSON.stringify(file)})));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", env: { ...process.env, BONSAI_TRACE_BUNDLES: trace } });
  if (r.status !== 0) throw new Error(`loading ${file} failed: ${r.stderr}`);
  const traced = /cache=(\w+)/.exec(readFileSync(trace, "utf8"));
  return { exports: JSON.parse(r.stdout) as Record<string, unknown>, cache: traced?.[1] ?? "(no trace)" };
}

function writeCache(file: string, ...warmUp: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [loader, "--write-cache", file, ...(warmUp.length > 0 ? ["--warm-up", ...warmUp] : [])], { encoding: "utf8" });
  return { status: r.status, stderr: r.stderr };
}

describe("a CommonJS bundle loaded by bin/cached-bundle.cjs", () => {
  it("runs with its code cache once the cache is written, in strict mode, with import.meta.url and __dirname of its file", () => {
    const file = path.join(dir, "one.cjs");
    writeBundle(file, 42);
    expect(load(file)).toEqual({ exports: { answer: 42, url: pathToFileURL(file).href, dir, strict: true }, cache: "none" });
    expect(writeCache(file).status).toBe(0);
    const cache = readFileSync(`${file}.cache`);
    expect(cache.toString("latin1", 0, 64)).toBe(readFileSync(file, "latin1").trim().split("\n").at(-1)?.slice(MARK.length));
    expect(load(file)).toEqual({ exports: { answer: 42, url: pathToFileURL(file).href, dir, strict: true }, cache: "accepted" });
  });

  it("does not use a cache made for another build, even one of the same length, which V8 itself would take", () => {
    const file = path.join(dir, "rebuilt.cjs");
    writeBundle(file, 42);
    expect(writeCache(file).status).toBe(0);
    writeBundle(file, 43); // the same length: only the digit differs
    expect(load(file)).toMatchObject({ exports: { answer: 43 }, cache: "stale" });
    // why the loader checks: V8 takes the old cache for the new text and runs the old code
    const script = new vm.Script(readFileSync(file, "latin1"), { filename: file, cachedData: readFileSync(`${file}.cache`).subarray(64) });
    const exports: Record<string, unknown> = {};
    if (!script.cachedDataRejected) {
      script.runInThisContext()(exports, undefined, { exports }, file, dir, { url: "" });
      expect(exports.answer).toBe(42);
    }
  });

  it("compiles the bundle when V8 rejects its cache (damaged), and runs it all the same", () => {
    const file = path.join(dir, "damaged.cjs");
    writeBundle(file, 7);
    expect(writeCache(file).status).toBe(0);
    const cache = readFileSync(`${file}.cache`);
    cache.fill(0x55, 64 + 8, 64 + 40); // the hash is right, V8's data is not
    writeFileSync(`${file}.cache`, cache);
    expect(load(file)).toMatchObject({ exports: { answer: 7 }, cache: "rejected" });
  });

  it("with --warm-up, runs the bundle's warmUp with the arguments before it writes the cache, which then holds the functions that ran", () => {
    // a bundle whose warmUp calls a function of some size: compiled then, its bytecode goes into the cache
    const body = Array.from({ length: 200 }, (_, i) => `  total += (n * ${i + 1}) % ${i + 7};`).join("\n");
    const text = `${HEAD}"use strict";\nfunction work(n) {\n  let total = 0;\n${body}\n  return total;\n}\nexports.answer = 5;\nexports.warmUp = async (args) => {\n  await new Promise((resolve) => setTimeout(resolve, 1));\n  require("node:fs").writeFileSync(args[0], JSON.stringify({ args, work: work(3) }));\n};\n\n})\n`;
    const file = path.join(dir, "warm.cjs");
    writeFileSync(file, `${text}${MARK}${createHash("sha256").update(text, "latin1").digest("hex")}\n`, "latin1");
    expect(writeCache(file).status).toBe(0);
    const cold = readFileSync(`${file}.cache`).length;
    const ran = path.join(dir, "warm-up-ran.json");
    const r = writeCache(file, ran, "second");
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(ran, "utf8"))).toMatchObject({ args: [ran, "second"] });
    expect(readFileSync(`${file}.cache`).length).toBeGreaterThan(cold + 1000);
    expect(load(file)).toMatchObject({ exports: { answer: 5 }, cache: "accepted" });
  });

  it("fails to write a cache with --warm-up for a bundle that exports no warmUp, and writes none", () => {
    const file = path.join(dir, "no-warm-up.cjs");
    writeBundle(file, 9);
    const r = writeCache(file, "anything");
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("exports no warmUp()");
    expect(() => readFileSync(`${file}.cache`)).toThrow(/ENOENT/);
  });

  it("refuses a file that is not a bundle of this build, and to write a cache for one without the build's hash line", () => {
    const file = path.join(dir, "unmarked.cjs");
    writeFileSync(file, `${HEAD}"use strict";\nexports.answer = 1;\n})\n`);
    const r = writeCache(file);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("has no //# bonsaiBuild= line");
    expect(load(file)).toMatchObject({ exports: { answer: 1 }, cache: "none" });
    const plainCommonJs = path.join(dir, "plain.cjs");
    writeFileSync(plainCommonJs, '"use strict";\nexports.answer = 1;\n');
    expect(() => load(plainCommonJs)).toThrow(/is not a bundle of this build/);
  });
});
