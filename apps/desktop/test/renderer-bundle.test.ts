/**
 * The built renderer (apps/desktop/out/renderer, from `pnpm build`) must be plain web code: no Node
 * built-ins, no Electron, no native modules, no CommonJS require. The same bundle runs in the
 * sandboxed Electron window and in any browser (bonsai serve).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const outDir = path.resolve(import.meta.dirname, "../out/renderer");
const built = fs.existsSync(path.join(outDir, "index.html"));

const NODE_MODULES = ["electron", "better-sqlite3", "ws", "fs", "path", "os", "child_process", "crypto", "worker_threads", "http", "https", "net", "url", "stream", "events", "util", "zlib", "module"];
const specifier = String.raw`["'\x60](?:node:[\w/]+|${NODE_MODULES.join("|")}|@bonsai/(?:store|engine|llm|backend))["'\x60]`;
const FORBIDDEN: [string, RegExp][] = [
  ["a static import of a Node/Electron module", new RegExp(String.raw`\bfrom\s*${specifier}`)],
  ["a bare import of a Node/Electron module", new RegExp(String.raw`\bimport\s*${specifier}`)],
  ["a dynamic import of a Node/Electron module", new RegExp(String.raw`\bimport\(\s*${specifier}`)],
  ["a require() call", /^(?![ \t]*\*).*?\brequire\(\s*["'`][^"'`]+["'`]\s*\)/m], // not in a doc comment's example
  ["process.binding / dlopen", /process\.(?:binding|dlopen)\b/],
];

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(path.join(dir, d.name)) : [path.join(dir, d.name)]));
}

describe.skipIf(!built)("the renderer bundle", () => {
  const scripts = built ? files(outDir).filter((f) => /\.(m?js|html)$/.test(f)) : [];

  it("exists and has JavaScript", () => {
    expect(scripts.some((f) => f.endsWith(".js"))).toBe(true);
  });

  it("contains no Node, Electron or native imports", () => {
    const found: string[] = [];
    for (const file of scripts) {
      const text = fs.readFileSync(file, "utf8");
      for (const [what, re] of FORBIDDEN) {
        const m = re.exec(text);
        if (m) found.push(`${path.relative(outDir, file)}: ${what}: …${text.slice(Math.max(0, m.index - 40), m.index + 60)}…`);
      }
    }
    expect(found).toEqual([]);
  });

  it("the patterns catch what they are meant to catch", () => {
    const samples = ['import fs from "node:fs";', 'import{ipcRenderer as a}from"electron"', 'await import("node:path")', 'const x=require("os")', 'import"ws"'];
    for (const s of samples) expect(FORBIDDEN.some(([, re]) => re.test(s)), s).toBe(true);
    expect(FORBIDDEN.some(([, re]) => re.test('import{createRoot}from"react-dom/client"'))).toBe(false);
  });

  it("loads with a strict Content-Security-Policy and relative asset paths", () => {
    const html = fs.readFileSync(path.join(outDir, "index.html"), "utf8");
    expect(html).toContain("Content-Security-Policy");
    expect(html).toMatch(/script-src 'self'/);
    expect(html).not.toMatch(/unsafe-eval/);
    expect(html).toMatch(/src="\.\/assets\//);
  });
});

if (!built) {
  describe("the renderer bundle", () => {
    it.skip("is not built: run `pnpm build` (the test runner builds before testing)", () => undefined);
  });
}
