/**
 * The shape of the product source: no product file in packages/ or apps/ over 450 lines, no circle of
 * imports between the folders of any package, and none at all between the files of packages/store
 * (every import counted, type-only and dynamic ones too).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const MAX_LINES = 450;

/** Each package's product source: its src/ folder (apps/desktop: main, preload and renderer are its folders). */
function productRoots(): string[] {
  const roots: string[] = [];
  for (const group of ["packages", "apps"]) {
    for (const name of fs.readdirSync(path.join(ROOT, group))) {
      const src = path.join(ROOT, group, name, "src");
      if (fs.existsSync(src)) roots.push(src);
    }
  }
  return roots;
}

/** Product files: sources, not tests beside them, not generated text. */
function productFiles(root: string): string[] {
  return sourceFiles(root).filter((f) => !/\.test\.tsx?$/.test(f) && !f.endsWith(".generated.ts"));
}


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

/** The first folder under `root` a file sits in ("" for the files at the root). */
function topFolder(root: string, file: string): string {
  const [first, ...rest] = path.relative(root, file).split(path.sep);
  return rest.length > 0 ? (first as string) : "";
}

/** Every circle of imports between the top folders of the package at `root` (the root's own files left out: they are its face). */
export function folderCircles(root: string): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(root)) {
    const from = topFolder(root, file);
    if (from === "") continue;
    for (const target of localImports(file)) {
      const to = topFolder(root, target);
      if (to === "" || to === from || !target.startsWith(root)) continue;
      const set = edges.get(from) ?? new Set<string>();
      set.add(to);
      edges.set(from, set);
    }
  }
  // a circle between folders: a folder that reaches itself through another
  const circles: string[][] = [];
  const reach = (start: string): Set<string> => {
    const seen = new Set<string>();
    const todo = [...(edges.get(start) ?? [])];
    while (todo.length > 0) {
      const next = todo.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      todo.push(...(edges.get(next) ?? []));
    }
    return seen;
  };
  const reached = new Map([...edges.keys()].map((f) => [f, reach(f)]));
  const done = new Set<string>();
  for (const [folder, seen] of reached) {
    if (done.has(folder) || !seen.has(folder)) continue;
    const group = [...seen].filter((other) => reached.get(other)?.has(folder)).sort();
    group.forEach((f) => done.add(f));
    circles.push(group.map((f) => path.join(path.relative(ROOT, root), f)));
  }
  return circles;
}

describe("source shape", () => {
  it("no product file in packages/ or apps/ is over 450 lines", () => {
    const files = productRoots().flatMap(productFiles);
    expect(files.length).toBeGreaterThan(300);
    const over = files.map((f) => ({ file: path.relative(ROOT, f), lines: lineCount(f) })).filter((f) => f.lines > MAX_LINES);
    expect(over).toEqual([]);
  });

  it("no circle of imports inside packages/store", () => {
    expect(importCircles(sourceFiles(path.join(ROOT, "packages/store/src")))).toEqual([]);
  });

  it("no circle of imports between the folders of any package", () => {
    expect(productRoots().flatMap(folderCircles)).toEqual([]);
  });

  it("finds a circle of imports between files, and between folders (the checks can fail)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-circle-"));
    try {
      fs.writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = () => b;\n');
      fs.writeFileSync(path.join(dir, "b.ts"), 'import type { x } from "./c/index";\nexport const b = 1;\n');
      fs.mkdirSync(path.join(dir, "c"));
      fs.writeFileSync(path.join(dir, "c", "index.ts"), 'export type x = number;\nexport const later = () => import("../a");\n');
      expect(importCircles(sourceFiles(dir)).map((c) => c.length)).toEqual([3]);
      expect(folderCircles(dir)).toEqual([]);
      fs.mkdirSync(path.join(dir, "d"));
      fs.writeFileSync(path.join(dir, "d", "x.ts"), 'import type { y } from "../e/y";\nexport type x = y;\n');
      fs.mkdirSync(path.join(dir, "e"));
      fs.writeFileSync(path.join(dir, "e", "y.ts"), 'export type y = number;\nexport const z = () => import("../d/x");\n');
      expect(folderCircles(dir)).toEqual([[path.join(path.relative(ROOT, dir), "d"), path.join(path.relative(ROOT, dir), "e")]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
