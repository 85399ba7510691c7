// Loads one of the CLI's CommonJS bundles (dist/*.cjs, scripts/build.mjs) with V8's code cache
// (dist/*.cjs.cache, written by the build with this module), so that a start does not compile the
// bundle again: its top level, and the functions its warm-up ran when the cache was made (for
// dist/import.cjs, an import of lines appended to a stored session). Nothing but speed depends on
// the cache:
// - the build ends each bundle with a line naming the SHA-256 of what precedes it, and the cache
//   starts with the same 64 hex digits: a cache made for another build of the bundle (even one of
//   the same length, which V8's own check would take) is not used;
// - V8 rejects a cache made by another V8 or under other flags, and the bundle is compiled as usual.
// It is CommonJS, as bin/bonsai.cjs is: a start of the CLI then never loads Node's ES module loader
// (about 7 ms), and Node's own modules come by require() (an ES module import of node:fs or
// node:crypto builds a namespace of every export, which loads what the command never uses).
// docs/PERFORMANCE.md, thirteenth to fifteenth passes.
"use strict";
const { createRequire } = require("node:module");
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const vm = require("node:vm");

// The build writes a bundle as the body of a function, as Node wraps a CommonJS module (so that the
// text read is compiled as it is, without a copy to wrap it); esbuild's define turns the sources'
// import.meta into the last parameter.
const WRAPPER_HEAD = "(function (exports, require, module, __filename, __dirname, __bonsaiImportMeta) {";
const WRAPPER_TAIL = "\n})\n";
/** the bundle's last line: BUILD_MARK + the SHA-256 (hex) of the text before that line */
const BUILD_MARK = "//# bonsaiBuild=";
const HASH_LENGTH = 64;

/** The hash a bundle's last line names, or null when it has none. */
function buildHashOf(source) {
  const at = source.lastIndexOf(`\n${BUILD_MARK}`);
  if (at === -1) return null;
  const hash = source.slice(at + 1 + BUILD_MARK.length, at + 1 + BUILD_MARK.length + HASH_LENGTH);
  return /^[0-9a-f]{64}$/.test(hash) ? hash : null;
}

/**
 * Runs the bundle `file` (an absolute path) and returns its exports, with the compiled script.
 * `useCache`: compile it with its code cache when that was made for this build.
 */
function runBundle(file, useCache) {
  // the build writes ASCII-only bundles, so latin1 reads them exactly and without decoding
  const source = fs.readFileSync(file, "latin1");
  if (!source.startsWith(WRAPPER_HEAD)) throw new Error(`${file} is not a bundle of this build (scripts/build.mjs): build the CLI again`);
  const hash = buildHashOf(source);
  let cachedData;
  let cache = "none";
  if (useCache && hash !== null) {
    let stored;
    try {
      stored = fs.readFileSync(`${file}.cache`);
    } catch {
      stored = null;
    }
    if (stored !== null && stored.length > HASH_LENGTH && stored.toString("latin1", 0, HASH_LENGTH) === hash) cachedData = stored.subarray(HASH_LENGTH);
    else if (stored !== null) cache = "stale";
  }
  const script = new vm.Script(source, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cachedData !== undefined) cache = script.cachedDataRejected ? "rejected" : "accepted";
  const module = { exports: {} };
  const requireHere = createRequire(file);
  const importMeta = { url: pathToFileURL(file).href, resolve: (specifier) => pathToFileURL(requireHere.resolve(specifier)).href };
  script.runInThisContext()(module.exports, requireHere, module, file, path.dirname(file), importMeta);
  const trace = process.env.BONSAI_TRACE_BUNDLES;
  if (trace) fs.appendFileSync(trace, `bundle ${file} cache=${cache}\n`);
  return { exports: module.exports, script, hash };
}

/** Runs the bundle `file` (an absolute path) with its code cache, and returns its exports. */
function loadBundle(file) {
  return runBundle(file, true).exports;
}

/**
 * Compiles the bundle `file` afresh, runs it, and writes its code cache beside it (the build does
 * this once per bundle, in a process of its own). With `warmUp` arguments, the bundle's own
 * `warmUp(args)` runs first, so that the cache also holds the functions that ran: a start then
 * reads them from the cache instead of compiling them (V8 compiles a function at its first call;
 * the cache of the top level alone holds none of those).
 */
async function writeBundleCache(file, warmUp = []) {
  const { exports, script, hash } = runBundle(file, false);
  if (hash === null) throw new Error(`${file} has no ${BUILD_MARK} line: its cache could not be told from another build's`);
  if (warmUp.length > 0) {
    if (typeof exports.warmUp !== "function") throw new Error(`${file} exports no warmUp() to run before its cache is made`);
    await exports.warmUp(warmUp);
  }
  const cacheFile = `${file}.cache`;
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, Buffer.concat([Buffer.from(hash, "latin1"), script.createCachedData()]));
  fs.renameSync(tmp, cacheFile);
}

module.exports = { WRAPPER_HEAD, WRAPPER_TAIL, BUILD_MARK, loadBundle, writeBundleCache };

// `node bin/cached-bundle.cjs --write-cache FILE [--warm-up ARG...]`: the build writes a bundle's
// cache in a process of its own (the bundle's top level, and its warm-up, run there, not in the
// build), under the flags a start loads it with (V8 takes a cache only under the flags it was made
// with)
if (require.main === module && process.argv[2] === "--write-cache") {
  const warmAt = process.argv.indexOf("--warm-up");
  const files = process.argv.slice(3, warmAt === -1 ? undefined : warmAt);
  const warmUp = warmAt === -1 ? [] : process.argv.slice(warmAt + 1);
  (async () => {
    for (const file of files) await writeBundleCache(path.resolve(file), warmUp);
  })().catch((err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}
