/**
 * The shape of the store's and the engine's source: no file over about 500 lines, and no circle of
 * imports inside packages/store (every import counted, type-only and dynamic ones too).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const MAX_LINES = 500;


function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

function lineCount(file: string): number {
  return fs.readFileSync(file, "utf8").split("\n").length;
}

/** The files of the package a file imports by a relative path ("./x", "../y/index"). */
function localImports(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  const out: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith(".")) continue;
    const base = path.resolve(path.dirname(file), fileName);
    const found = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
    if (found) out.push(found);
  }
  return out;
}

/** Every circle of imports among `files`, each as the list of its files (one per strongly connected group). */
export function importCircles(files: readonly string[]): string[][] {
  const inSet = new Set(files);
  const edges = new Map(files.map((f) => [f, localImports(f).filter((g) => inSet.has(g))]));
  // Tarjan's strongly connected components
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, idx.get(w) as number));
    }
    if (low.get(v) !== idx.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (edges.get(v) ?? []).includes(v)) circles.push(group.map((f) => path.relative(ROOT, f)).sort());
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return circles;
}

describe("source shape", () => {
  const files = ["packages/store/src", "packages/engine/src"].flatMap((d) => sourceFiles(path.join(ROOT, d)));

  it("no file in packages/store or packages/engine is over about 500 lines", () => {
    const over = files.map((f) => ({ file: path.relative(ROOT, f), lines: lineCount(f) })).filter((f) => f.lines > MAX_LINES);
    expect(over).toEqual([]);
  });

  it("no circle of imports inside packages/store", () => {
    expect(importCircles(sourceFiles(path.join(ROOT, "packages/store/src")))).toEqual([]);
  });

  it("finds a circle of imports (the check can fail)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-circle-"));
    try {
      fs.writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = () => b;\n');
      fs.writeFileSync(path.join(dir, "b.ts"), 'import type { x } from "./c/index";\nexport const b = 1;\n');
      fs.mkdirSync(path.join(dir, "c"));
      fs.writeFileSync(path.join(dir, "c", "index.ts"), 'export type x = number;\nexport const later = () => import("../a");\n');
      expect(importCircles(sourceFiles(dir)).map((c) => c.length)).toEqual([3]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
