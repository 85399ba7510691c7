/**
 * Commands load lazily: the registry holds each command's spec, and the implementation is imported
 * only when the command runs. In the bundle (scripts/build.mjs, esbuild code splitting), start-up
 * and the read commands on a file must not load the engine, the store, the server or their
 * dependencies. The bundle's layout is read from apps/cli/dist/meta.json (esbuild's metafile).
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../src/commands/index";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const dist = path.join(root, "apps/cli/dist");

interface Metafile {
  outputs: Record<string, { entryPoint?: string; imports: { path: string; kind: string; external?: boolean }[]; inputs: Record<string, unknown> }>;
}

function readMeta(): Metafile {
  const file = path.join(dist, "meta.json");
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`pnpm build:cli\` first`);
  return JSON.parse(readFileSync(file, "utf8")) as Metafile;
}

/** Every source file and external module loaded when `output` is imported (static imports only). */
function staticClosure(meta: Metafile, output: string): { inputs: Set<string>; externals: Set<string> } {
  const inputs = new Set<string>();
  const externals = new Set<string>();
  const seen = new Set<string>();
  const visit = (out: string): void => {
    if (seen.has(out)) return;
    seen.add(out);
    const o = meta.outputs[out];
    if (!o) throw new Error(`${out} is not an output of the build`);
    for (const input of Object.keys(o.inputs)) inputs.add(input);
    for (const imp of o.imports) {
      if (imp.kind !== "import-statement") continue; // dynamic imports load later, on demand
      if (imp.external) externals.add(imp.path);
      else visit(imp.path);
    }
  };
  visit(output);
  return { inputs, externals };
}

function outputOf(meta: Metafile, entryPoint: string): string {
  const found = Object.entries(meta.outputs).find(([, o]) => o.entryPoint === entryPoint);
  if (!found) throw new Error(`no output for ${entryPoint}`);
  return found[0];
}

// the store's block decoder (packages/store/src/source/blocks.ts: Node only, no SQLite) is the one
// store file a file read may load
const HEAVY = [/^packages\/(engine|store|backend|llm|ipc)\/(?!src\/(?:source\/blocks|write-failure-sentence)\.ts$)/, /node_modules/];

describe("lazy commands", () => {
  it("every registry line loads an implementation", async () => {
    const names = COMMANDS.map((c) => c.spec.name);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect(typeof command.run, entry.spec.name).toBe("function");
    }
  });

  it("the bundle is split: the entry, the workers where their packages expect them, and the chunks", () => {
    const meta = readMeta();
    expect(existsSync(path.join(dist, "bonsai.mjs"))).toBe(true);
    expect(existsSync(path.join(dist, "compaction-worker.mjs"))).toBe(true);
    expect(outputOf(meta, "apps/cli/src/main.ts")).toBe("apps/cli/dist/bonsai.mjs");
    expect(outputOf(meta, "packages/engine/src/worker/compaction-worker.ts")).toBe("apps/cli/dist/compaction-worker.mjs");
    // each package's worker entry beside it (workerEntryUrl finds them there)
    expect(outputOf(meta, "packages/store/src/jobs/store-worker.ts")).toBe("apps/cli/dist/store-worker.mjs");
    expect(outputOf(meta, "packages/team/src/worker/amnesia-worker.ts")).toBe("apps/cli/dist/amnesia-worker.mjs");
    for (const command of ["context", "serve", "compact", "import"]) {
      expect(outputOf(meta, `apps/cli/src/commands/${command}.ts`)).toMatch(new RegExp(`^apps/cli/dist/chunks/${command}-[A-Z0-9]+\\.mjs$`));
    }
  });

  it("start-up (help, argument errors) loads only the CLI frame, the specs and core", () => {
    const meta = readMeta();
    const { inputs, externals } = staticClosure(meta, "apps/cli/dist/bonsai.mjs");
    const heavy = [...inputs].filter((i) => HEAVY.some((re) => re.test(i)));
    expect(heavy).toEqual([]);
    expect([...externals].filter((e) => !e.startsWith("node:"))).toEqual([]);
    expect([...inputs].some((i) => i.startsWith("apps/cli/src/commands/") && !i.endsWith(".args.ts") && !i.endsWith("/index.ts") && !i.endsWith("/command.ts"))).toBe(false);
    // of core, only the defaults the specs show, the id list output.ts prints and the error classes errors.ts reports (not the core chunk every command shares)
    expect([...inputs].filter((i) => i.startsWith("packages/core/")).sort()).toEqual(["packages/core/src/defaults.ts", "packages/core/src/entries.ts", "packages/core/src/errors.ts", "packages/core/src/id-list.ts"]);
  });

  it.each(["context", "plan", "branch", "migrate", "prune"])("`bonsai %s FILE` loads only core and its command (no engine, store, server)", (command) => {
    const meta = readMeta();
    const { inputs, externals } = staticClosure(meta, outputOf(meta, `apps/cli/src/commands/${command}.ts`));
    expect([...inputs].filter((i) => HEAVY.some((re) => re.test(i)))).toEqual([]);
    expect([...externals].filter((e) => !e.startsWith("node:"))).toEqual([]);
    expect(inputs.has(`apps/cli/src/commands/${command}.ts`)).toBe(true);
  });

  it("the engine commands do load the engine (the check above can fail)", () => {
    const meta = readMeta();
    const { inputs } = staticClosure(meta, outputOf(meta, "apps/cli/src/commands/compact.ts"));
    expect([...inputs].some((i) => i.startsWith("packages/engine/"))).toBe(true);
    // better-sqlite3's JavaScript is bundled; its addon is loaded by path (native-binding.ts)
    expect([...inputs].some((i) => /node_modules\/.*better-sqlite3\/lib\/database\.js$/.test(i))).toBe(true);
  });

  it("a stored session id is read through the store's reader alone (no file side, import or write code)", () => {
    const meta = readMeta();
    const { inputs, externals } = staticClosure(meta, outputOf(meta, "apps/cli/src/stored-session.ts"));
    expect(inputs.has("packages/store/src/reader.ts")).toBe(true);
    const writing = [...inputs].filter((i) => /^packages\/store\/src\/(sqlite-session-store|modules\/|import\/|source\/(?!blocks))/.test(i) || i.startsWith("packages/engine/"));
    expect(writing).toEqual([]);
    expect([...externals].filter((e) => !e.startsWith("node:"))).toEqual([]);
  });

  it("a read command on a stored id runs from a chunk of its own, with no file, import or write code", () => {
    const main = readFileSync(path.join(dist, "bonsai.mjs"), "utf8");
    expect(main).toMatch(/import\("\.\/chunks\/stored-read-[\w-]+\.mjs"\)/);
    const meta = readMeta();
    const readChunk = outputOf(meta, "apps/cli/src/stored-read.ts");
    const { inputs, externals } = staticClosure(meta, readChunk);
    for (const needed of ["apps/cli/src/stored-read.ts", "apps/cli/src/stored-session.ts", "packages/store/src/reader.ts"]) expect(inputs).toContain(needed);
    // each command's answer is a chunk of its own, loaded for the command that runs only
    const commandChunks = meta.outputs[readChunk]!.imports.filter((i) => i.kind === "dynamic-import").map((i) => i.path);
    const commands = ["context", "plan", "prune", "branch"].map((c) => `apps/cli/src/commands/${c}.ts`);
    for (const command of commands) {
      expect(inputs).not.toContain(command);
      const chunk = commandChunks.find((c) => staticClosure(meta, c).inputs.has(command));
      expect(chunk, command).toBeDefined();
      const loaded = staticClosure(meta, chunk as string);
      expect(commands.filter((other) => other !== command && loaded.inputs.has(other))).toEqual([]);
      for (const i of loaded.inputs) inputs.add(i);
      for (const e of loaded.externals) externals.add(e);
    }
    const unwanted = [...inputs].filter((i) =>
      /^packages\/(formats|engine|backend|llm|ipc)\/|^packages\/store\/src\/(sqlite-session-store|modules\/|import\/|source\/|jobs\/)|^apps\/cli\/src\/(session-file|held-session|read-session-file|commands\/prune-apply)\.ts$/.test(i),
    );
    expect(unwanted).toEqual([]);
    expect([...externals].filter((e) => !e.startsWith("node:"))).toEqual([]);
  });

  it("node:fs is taken as the module itself, never through its ES module facade (whose first import loads fs's streams and promises)", () => {
    const meta = readMeta();
    const facades = Object.entries(meta.outputs).flatMap(([out, o]) => o.imports.filter((i) => i.external && i.kind !== "require-call" && /^(node:)?fs$/.test(i.path)).map((i) => `${out} imports ${i.path}`));
    expect(facades).toEqual([]);
    // the module in its place, and it is the one fs
    expect(Object.values(meta.outputs).some((o) => Object.keys(o.inputs).includes("node-fs:fs"))).toBe(true);
  });

  it("the bundle knows where better-sqlite3 was installed, so a start does not resolve the package (native-binding.ts)", () => {
    const meta = readMeta();
    const [out] = Object.entries(meta.outputs).find(([, o]) => Object.keys(o.inputs).includes("apps/cli/src/native-binding.ts")) ?? [];
    expect(out).toBeDefined();
    const dir = path.dirname(createRequire(path.join(root, "packages/store/package.json")).resolve("better-sqlite3/package.json"));
    expect(readFileSync(path.join(root, out as string), "utf8")).toContain(JSON.stringify(dir));
  });
});
