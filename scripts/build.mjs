#!/usr/bin/env node
// Builds what the tests and the app need:
//   node scripts/build.mjs        prompts + CLI bundle + desktop (electron-vite)
//   node scripts/build.mjs cli    prompts + CLI bundle only (fast, ~1 s)
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const only = process.argv[2];

execFileSync(process.execPath, [path.join(root, "scripts/gen-prompts.mjs")], { stdio: "inherit" });

const entryPoints = { bonsai: path.join(root, "apps/cli/src/main.ts") };
// each package's worker entry, emitted beside the CLI's bundle (found there by the package: workerEntryUrl)
const workerEntries = {
  "compaction-worker": "packages/engine/src/worker/compaction-worker.ts",
  "store-worker": "packages/store/src/jobs/store-worker.ts",
  "amnesia-worker": "packages/team/src/worker/amnesia-worker.ts",
};
for (const [name, file] of Object.entries(workerEntries)) if (fs.existsSync(path.join(root, file))) entryPoints[name] = path.join(root, file);

// Code splitting: dist/bonsai.mjs holds the command line, the registry and the command specs; each
// command implementation (and what it needs: engine, store, server, ...) is a chunk under
// dist/chunks/, loaded by a dynamic import when that command runs. dist/compaction-worker.mjs (and the
// other worker entries beside it) stay where the CLI looks for them (apps/cli/src/bundle-paths.ts).
const outdir = path.join(root, "apps/cli/dist");

// node:fs as the module itself (process.getBuiltinModule), not through its ES module facade: an ES
// module's first `import ... from "node:fs"` reads every export of fs, its lazy getters too
// (ReadStream, promises, ...), which load fs's streams and promises on every start (a few ms of a
// stored read's CPU). The getters are left out: an import of one fails the build (import-is-undefined).
const fsModule = process.getBuiltinModule("node:fs");
const fsExports = Object.keys(fsModule).filter((key) => !Object.getOwnPropertyDescriptor(fsModule, key)?.get && /^[A-Za-z_$][\w$]*$/.test(key));
const fsWithoutFacade = {
  name: "node-fs-without-facade",
  setup(b) {
    b.onResolve({ filter: /^(node:)?fs$/ }, (args) => (args.kind === "import-statement" || args.kind === "dynamic-import" ? { path: "fs", namespace: "node-fs" } : undefined));
    b.onLoad({ filter: /.*/, namespace: "node-fs" }, () => ({
      contents: `const fs = process.getBuiltinModule("node:fs");\nexport default fs;\nexport const { ${fsExports.join(", ")} } = fs;\n`,
      loader: "js",
    }));
  },
};

// where better-sqlite3 is installed, for the CLI to find its native addon without resolving the
// package on every start (apps/cli/src/native-binding.ts; it resolves it when the folder is gone)
const sqlitePackageDir = path.dirname(createRequire(path.join(root, "packages/store/package.json")).resolve("better-sqlite3/package.json"));

const result = await build({
  outdir,
  absWorkingDir: root, // metafile paths relative to the repository root
  metafile: true,
  write: false,
  outExtension: { ".js": ".mjs" },
  entryNames: "[name]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  sourcemap: true,
  // better-sqlite3's JavaScript is bundled (loading its dozen CommonJS files on every start cost a
  // stored read more than its whole answer); its native addon is loaded by path: every store the CLI
  // opens passes nativeBinding (apps/cli/src/native-binding.ts), so its own lookup never runs
  external: ["electron"],
  // `require` for the CommonJS code bundled in (better-sqlite3's JavaScript), made on its first use:
  // a createRequire at the top of each of the score of chunks a command loads cost ~2 ms of its start
  banner: {
    js: "import { createRequire as __bonsaiCreateRequire } from 'node:module'; let __bonsaiRequire; const __bonsaiRequireOf = () => (__bonsaiRequire ??= __bonsaiCreateRequire(import.meta.url)); const require = Object.assign((id) => __bonsaiRequireOf()(id), { resolve: (id, options) => __bonsaiRequireOf().resolve(id, options) });",
  },
  logLevel: "warning",
  logOverride: { "import-is-undefined": "error" },
  plugins: [fsWithoutFacade],
  define: { BONSAI_SQLITE_PACKAGE_DIR: JSON.stringify(sqlitePackageDir) },
  entryPoints,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
});

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
const chunksFirst = [...result.outputFiles].sort((a, b) => Number(isChunk(b.path)) - Number(isChunk(a.path)));
for (const out of chunksFirst) writeAtomic(out.path, out.contents);
const written = new Set(result.outputFiles.map((f) => f.path));
const chunkDir = path.join(outdir, "chunks");
for (const name of fs.existsSync(chunkDir) ? fs.readdirSync(chunkDir) : []) {
  const file = path.join(chunkDir, name);
  if (!written.has(file) && Date.now() - fs.statSync(file).mtimeMs > 10 * 60_000) fs.rmSync(file, { force: true });
}
// which chunk holds which source (apps/cli/test/lazy-commands.test.ts checks what each command loads)
writeAtomic(path.join(outdir, "meta.json"), JSON.stringify(result.metafile));
// the bundles of earlier builds that are no more (a CommonJS bundle per command with its code cache)
for (const stale of ["import.cjs", "import.cjs.cache", "import.cjs.map", "import.meta.json", "stored-read.cjs", "stored-read.cjs.cache", "stored-read.cjs.map", "stored-read.meta.json"]) fs.rmSync(path.join(outdir, stale), { force: true });

if (only !== "cli" && fs.existsSync(path.join(root, "apps/desktop/electron.vite.config.ts"))) {
  execFileSync("pnpm", ["--filter", "@bonsai/desktop", "build"], { stdio: "inherit", cwd: root });
}
