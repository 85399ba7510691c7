#!/usr/bin/env node
// Builds what the tests and the app need:
//   node scripts/build.mjs        prompts + CLI bundle + desktop (electron-vite)
//   node scripts/build.mjs cli    prompts + CLI bundle only (fast, ~1 s)
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { builtinModules, createRequire } from "node:module";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { BUILD_MARK, WRAPPER_HEAD, WRAPPER_TAIL } from "../apps/cli/bin/cached-bundle.cjs";

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const only = process.argv[2];

execFileSync(process.execPath, [path.join(root, "scripts/gen-prompts.mjs")], { stdio: "inherit" });

const entryPoints = { bonsai: path.join(root, "apps/cli/src/main.ts") };
const workerEntry = path.join(root, "packages/engine/src/worker/compaction-worker.ts");
if (fs.existsSync(workerEntry)) entryPoints["compaction-worker"] = workerEntry;

// Code splitting: dist/bonsai.mjs holds the command line, the registry and the command specs; each
// command implementation (and what it needs: engine, store, server, ...) is a chunk under
// dist/chunks/, loaded by a dynamic import when that command runs. dist/compaction-worker.mjs stays
// where the CLI's engine looks for it (apps/cli/src/bundle-paths.ts).
const outdir = path.join(root, "apps/cli/dist");

// The read commands on a stored session id run from a bundle of their own, dist/stored-read.cjs
// (apps/cli/src/stored-read.ts, built below as dist/import.cjs is): one module with exactly what
// they run, instead of the chunks the split bundle shares among all commands (each module a start
// loads costs CPU of its own: the same code in ~15 modules cost a stored `context` about 10 ms
// more, docs/PERFORMANCE.md). bin/bonsai.cjs runs it; the command line (which runs when it gives a
// command back) has the same module as a chunk of its own.
const storedRead = path.join(root, "apps/cli/src/stored-read.ts");
// what both builds share
const common = {
  outdir,
  absWorkingDir: root, // metafile paths relative to the repository root
  metafile: true,
  write: false,
  outExtension: { ".js": ".mjs" },
  entryNames: "[name]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  // better-sqlite3's JavaScript is bundled (loading its dozen CommonJS files on every start cost a
  // stored read more than its whole answer); its native addon is loaded by path: every store the CLI
  // opens passes nativeBinding (apps/cli/src/native-binding.ts), so its `bindings` lookup never runs
  external: ["electron"],
  banner: { js: "import { createRequire as __bonsaiCreateRequire } from 'node:module'; const require = __bonsaiCreateRequire(import.meta.url);" },
  logLevel: "warning",
};

const result = await build({ ...common, entryPoints, splitting: true, chunkNames: "chunks/[name]-[hash]" });
// The stored-read bundle has no dynamic import of its own: each one (the fallbacks its commands never
// take there: a Claude Code or Codex session, a file) loads the split bundle's chunk of that module.
// Bundled instead, every module reachable from one would be wrapped for lazy evaluation and kept
// whole, with no tree shaking (about three times the code).
const chunkOfSource = new Map(Object.entries(result.metafile.outputs).filter(([, o]) => o.entryPoint).map(([out, o]) => [o.entryPoint, out]));
const dynamicImportsToChunks = {
  name: "dynamic-imports-to-chunks",
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== "dynamic-import" || args.pluginData === "inner") return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "inner" });
      const out = chunkOfSource.get(path.relative(root, resolved.path).split(path.sep).join("/"));
      if (!out) return { errors: [{ text: `${args.path} (imported by ${args.importer}) is not a chunk of the split bundle` }] };
      return { path: `./${path.relative(outdir, path.join(root, out)).split(path.sep).join("/")}`, external: true };
    });
  },
};
// `bonsai import` runs from a bundle of its own as well, dist/import.cjs (apps/cli/src/import-command-line.ts),
// which bin/bonsai.cjs loads instead of the command line: one module of what an import runs (about
// 20 ms less to load than the command line's start and the import's chunks, docs/PERFORMANCE.md).
// It is CommonJS, so that bin/cached-bundle.cjs can load it with V8's code cache of its top level
// (written below) and its Node modules come by require() instead of ES module namespaces; ASCII
// only, so that it is read without decoding. import.meta is a parameter of its wrapper.
// Node's modules in a CommonJS bundle: esbuild would copy every property of a module into a new
// object at each import of it (36 imports, about 5 ms a start); instead each one is a module of the
// bundle that takes require()'s object once and exports its plain properties by name. An accessor
// (fs.promises, crypto.webcrypto: loaded on first use) is reached only through the default import;
// a named import of one fails the build (logOverride below).
const builtinNames = new Set(builtinModules);
const requiredBuiltins = {
  name: "required-builtins",
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, "");
      // @noble/hashes reads crypto.webcrypto (an accessor) through a namespace import: left to esbuild
      if (/[\\/]@noble[\\/]hashes[\\/]/.test(args.importer)) return undefined;
      // imports only: a require() in a CommonJS dependency stays a require()
      // sideEffects false: a module whose imports of it all go unused (worker_threads in the store's
      // job client) is dropped, as an unused ES module import of it would be
      return args.kind === "import-statement" && builtinNames.has(name) ? { path: name, namespace: "required-builtin", sideEffects: false } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: "required-builtin" }, (args) => {
      const exported = require(`node:${args.path}`);
      const names = Object.entries(Object.getOwnPropertyDescriptors(exported))
        .filter(([name, d]) => "value" in d && /^[A-Za-z_$][\w$]*$/.test(name) && name !== "default")
        .map(([name]) => name);
      const lines = [`const m = require(${JSON.stringify(`node:${args.path}`)});`, "export default m;", ...names.map((n) => `export const ${n} = m.${n};`)];
      return { contents: lines.join("\n"), loader: "js" };
    });
  },
};
// charset "ascii" escapes non-ASCII characters in strings but not in regular expression literals
// (markdown-it has `/ẞ/g`), which the latin1 read of a bundle would then garble: the Markdown
// parser's modules are loaded with every non-ASCII UTF-16 unit written as a \uXXXX escape (valid in
// strings, regular expressions, identifiers and comments alike; they have no template literals
// that read their raw text).
const MARKDOWN_MODULES = /[\\/]node_modules[\\/](markdown-it|mdurl|uc\.micro|punycode\.js|linkify-it|entities)[\\/].*\.m?js$/;
const asciiMarkdownModules = {
  name: "ascii-markdown-modules",
  setup(b) {
    b.onLoad({ filter: MARKDOWN_MODULES }, (args) => {
      const text = fs.readFileSync(args.path, "utf8");
      return { contents: text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`), loader: "js" };
    });
  },
};
/** a CommonJS bundle of `entry` for bin/cached-bundle.cjs, as dist/NAME.cjs */
const cachedBundle = (name, entry) =>
  build({
    ...common,
    entryPoints: { [name]: entry },
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    charset: "ascii",
    banner: {},
    define: { "import.meta": "__bonsaiImportMeta" },
    logOverride: { "import-is-undefined": "error" },
    plugins: [requiredBuiltins, asciiMarkdownModules, dynamicImportsToChunks],
  });
const importOnly = await cachedBundle("import", path.join(root, "apps/cli/src/import-command-line.ts"));
const stored = await cachedBundle("stored-read", storedRead);
// Others run the CLI while it is rebuilt: chunks (content-hashed names) are written first and the
// entries last, each file by rename, so a starting `bonsai` never sees an entry without its chunks.
// Chunks of earlier builds are removed once they are 10 minutes old (a running command may still
// import one).
function writeAtomic(file, contents) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, contents);
  fs.renameSync(tmp, file);
}
const isChunk = (file) => path.dirname(file) === path.join(outdir, "chunks");
for (const out of result.outputFiles.filter((f) => isChunk(f.path))) writeAtomic(out.path, out.contents);
// A CommonJS bundle for bin/cached-bundle.cjs: ASCII only (esbuild's charset "ascii" escapes every
// string, template, regular expression and name; what is left outside ASCII is in comments, which
// become "?", one character for one so that the source map holds), ending with a line that names
// the SHA-256 of the text before it (its code cache is used only with the build it was made for).
// It is written inside the loader's function wrapper, which the loader then compiles as it reads it.
function cachedBundleText(text) {
  const wrapped = `${WRAPPER_HEAD}${text.replace(/[^\p{ASCII}]/gu, "?")}${WRAPPER_TAIL}`;
  return Buffer.from(`${wrapped}${BUILD_MARK}${createHash("sha256").update(wrapped, "latin1").digest("hex")}\n`, "latin1");
}
const contentsOf = (out) => (out.path.endsWith(".cjs") ? cachedBundleText(out.text) : out.contents);
for (const out of [...stored.outputFiles, ...importOnly.outputFiles, ...result.outputFiles.filter((f) => !isChunk(f.path))]) writeAtomic(out.path, contentsOf(out));
const written = new Set(result.outputFiles.map((f) => f.path));
const chunkDir = path.join(outdir, "chunks");
for (const name of fs.existsSync(chunkDir) ? fs.readdirSync(chunkDir) : []) {
  const file = path.join(chunkDir, name);
  if (!written.has(file) && Date.now() - fs.statSync(file).mtimeMs > 10 * 60_000) fs.rmSync(file, { force: true });
}
// which chunk holds which source (apps/cli/test/lazy-commands.test.ts checks what each command loads)
writeAtomic(path.join(outdir, "meta.json"), JSON.stringify(result.metafile));
writeAtomic(path.join(outdir, "stored-read.meta.json"), JSON.stringify(stored.metafile));
writeAtomic(path.join(outdir, "import.meta.json"), JSON.stringify(importOnly.metafile));
// The code caches of dist/import.cjs and dist/stored-read.cjs, made by the loader that reads them
// (bin/cached-bundle.cjs), each in a process of its own, with this Node, once the bundle has run its
// warm-up: for the import, an import of lines appended to a session stored by an earlier process
// (what `bonsai import` does most: a session folder again, a few files grown); for the stored reads,
// the reads of that stored session. A cache then holds the functions its warm-up ran, which a start
// would otherwise compile at their first call (docs/PERFORMANCE.md, fourteenth and fifteenth passes).
const importBundle = path.join(outdir, "import.cjs");
const storedReadBundle = path.join(outdir, "stored-read.cjs");
const warm = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-warm-up-"));
try {
  const session = path.join(warm, "session.jsonl");
  const appended = path.join(warm, "appended.jsonl");
  execFileSync(process.execPath, ["--import", "tsx", path.join(root, "apps/cli/scripts/warm-up-session.ts"), session, appended], { stdio: "inherit", cwd: path.join(root, "apps/cli") });
  const env = { ...process.env, BONSAI_DB: path.join(warm, "bonsai.db"), HOME: warm, BONSAI_TRACE_BUNDLES: "" };
  const imported = execFileSync(process.execPath, [path.join(root, "apps/cli/bin/bonsai.cjs"), "import", session, "--json"], { stdio: ["ignore", "pipe", "inherit"], env, encoding: "utf8" });
  const sessionId = JSON.parse(imported).reports[0].sessionId;
  fs.appendFileSync(session, fs.readFileSync(appended));
  const writeCache = (bundle, ...warmUp) =>
    execFileSync(process.execPath, [path.join(root, "apps/cli/bin/cached-bundle.cjs"), "--write-cache", bundle, "--warm-up", ...warmUp], { stdio: "inherit", env });
  writeCache(importBundle, "import", session);
  writeCache(storedReadBundle, sessionId);
} finally {
  fs.rmSync(warm, { recursive: true, force: true });
}
for (const stale of ["import.mjs", "import.mjs.map", "stored-read.mjs", "stored-read.mjs.map"]) fs.rmSync(path.join(outdir, stale), { force: true });

if (only !== "cli" && fs.existsSync(path.join(root, "apps/desktop/electron.vite.config.ts"))) {
  execFileSync("pnpm", ["--filter", "@bonsai/desktop", "build"], { stdio: "inherit", cwd: root });
}
