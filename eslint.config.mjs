// Lint rules, including the layer arrows of docs/ARCHITECTURE.md as errors, one rule per package:
//   core <- formats <- store; core <- llm; store, llm <- engine <- ipc/backend <- apps; store, backend, ipc <- team <- cli;
//   the renderer sees only ipc, core and UI libraries; testkit and bench are test support nothing in a product imports.
// packages/core/test/layers.test.ts checks that each rule fails a wrong import.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

const nodeBuiltins = ["node:*", "fs", "path", "os", "child_process", "crypto", "worker_threads", "http", "https", "net", "url", "stream", "events", "util", "zlib", "readline"];
const pattern = (group, message) => ({ group, message });
const layer = (files, forbidden) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns: forbidden }] },
});

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "**/dist-types/**", "**/dist-*/**", "**/out/**", "**/release/**", "**/*.generated.ts", "**/test-results/**", "**/playwright-report/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  layer(["packages/core/src/**"], [
    pattern(nodeBuiltins, "packages/core is pure: no Node built-ins (I/O belongs at the edges)."),
    pattern(["@bonsai/*", "better-sqlite3", "openai", "electron", "react", "ws", "zod"], "packages/core imports nothing outside itself."),
  ]),
  layer(["packages/formats/src/**"], [
    pattern(nodeBuiltins, "packages/formats is pure: no Node built-ins (it turns text into entries; I/O belongs at the edges)."),
    pattern(["@bonsai/store", "@bonsai/llm", "@bonsai/engine", "@bonsai/ipc", "@bonsai/backend", "@bonsai/team", "@bonsai/testkit", "better-sqlite3", "openai", "electron", "react", "ws", "zod"], "packages/formats imports only @bonsai/core."),
  ]),
  layer(["packages/store/src/**"], [
    pattern(["@bonsai/llm", "@bonsai/engine", "@bonsai/ipc", "@bonsai/backend", "@bonsai/team", "@bonsai/testkit", "openai", "electron", "react"], "packages/store depends only on core and formats."),
  ]),
  layer(["packages/store/src/conformance/**"], [
    pattern(["@bonsai/llm", "@bonsai/engine", "@bonsai/ipc", "@bonsai/backend", "openai", "electron", "react"], "packages/store depends only on core and formats."),
    pattern(["../*", "!../session-store", "better-sqlite3"], "the conformance suite is written only against the SessionStore interface (../session-store), so that another implementation can run it."),
  ]),
  layer(["packages/llm/src/**"], [
    pattern(["@bonsai/store", "@bonsai/engine", "@bonsai/ipc", "@bonsai/backend", "@bonsai/team", "@bonsai/testkit", "better-sqlite3", "electron", "react"], "packages/llm depends only on core."),
  ]),
  layer(["packages/engine/src/**"], [
    pattern(["@bonsai/ipc", "@bonsai/backend", "@bonsai/team", "@bonsai/testkit", "better-sqlite3", "electron", "react"], "packages/engine sits below ipc/backend and reaches SQLite only through the store."),
  ]),
  layer(["packages/ipc/src/**"], [
    pattern([...nodeBuiltins, "@bonsai/store", "@bonsai/llm", "@bonsai/engine", "@bonsai/backend", "@bonsai/team", "@bonsai/testkit", "better-sqlite3", "electron", "react"], "packages/ipc is the contract: core types and zod only, usable in the renderer."),
  ]),
  layer(["packages/backend/src/**"], [
    pattern(["electron", "react", "react-dom"], "packages/backend runs in any Node host; Electron stays in apps/desktop."),
    pattern(["@bonsai/team", "@bonsai/testkit"], "packages/backend sits below the team archive, and test support stays in tests."),
  ]),
  layer(["packages/team/src/**"], [
    pattern(["@bonsai/engine", "@bonsai/llm", "@bonsai/testkit", "better-sqlite3", "electron", "react", "react-dom"], "packages/team builds on store, core, formats, ipc and backend (the page on an archive); SQLite only through the store."),
  ]),
  layer(["packages/testkit/src/**"], [
    pattern(["@bonsai/store", "@bonsai/llm", "@bonsai/engine", "@bonsai/ipc", "@bonsai/backend", "@bonsai/team", "electron", "react"], "packages/testkit is test support over core only (generated sessions, a loopback model)."),
  ]),
  layer(["packages/bench/bench/**", "packages/bench/test/**"], [
    pattern(["@bonsai/team", "electron", "react"], "packages/bench runs whole bonsai processes beside the parse floor: it reads the store and the backend, never the team archive or the app."),
  ]),
  layer(["apps/desktop/src/main/**", "apps/desktop/src/preload/**"], [
    pattern(["@bonsai/team", "@bonsai/testkit", "@bonsai/engine", "@bonsai/llm", "better-sqlite3", "react", "react-dom"], "the desktop main process hosts the backend (and its utility process); the engine and SQLite stay behind @bonsai/backend and @bonsai/store."),
  ]),
  layer(["apps/cli/src/**"], [
    pattern(["electron", "react", "react-dom", "better-sqlite3", "@bonsai/testkit"], "the CLI reaches SQLite only through @bonsai/store."),
  ]),
  layer(["apps/desktop/src/renderer/**"], [
    pattern([...nodeBuiltins, "electron", "@bonsai/store", "@bonsai/llm", "@bonsai/engine", "@bonsai/backend", "@bonsai/team", "@bonsai/testkit", "better-sqlite3", "openai", "ws"], "the renderer imports only @bonsai/ipc, @bonsai/core, react, zustand and @xyflow/react."),
  ]),
  {
    files: ["apps/desktop/src/renderer/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // the CLI's CommonJS entry and bundle loader (bin/*.cjs): require() is how they load modules
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
