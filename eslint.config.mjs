// Lint rules, including the layer arrows of docs/ARCHITECTURE.md as errors:
//   core <- formats <- store; core <- llm; store, llm <- engine <- ipc/backend <- apps; the renderer sees only ipc, core and UI libraries.
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
    pattern(["@bonsai/store", "@bonsai/llm", "@bonsai/engine", "@bonsai/ipc", "@bonsai/backend", "better-sqlite3", "openai", "electron", "react", "ws", "zod"], "packages/formats imports only @bonsai/core."),
  ]),
  layer(["packages/store/src/**"], [
    pattern(["@bonsai/llm", "@bonsai/engine", "@bonsai/ipc", "@bonsai/backend", "openai", "electron", "react"], "packages/store depends only on core and formats."),
  ]),
  layer(["packages/store/src/conformance/**"], [
    pattern(["@bonsai/llm", "@bonsai/engine", "@bonsai/ipc", "@bonsai/backend", "openai", "electron", "react"], "packages/store depends only on core and formats."),
    pattern(["../*", "!../session-store", "better-sqlite3"], "the conformance suite is written only against the SessionStore interface (../session-store), so that another implementation can run it."),
  ]),
  layer(["packages/llm/src/**"], [
    pattern(["@bonsai/store", "@bonsai/engine", "@bonsai/ipc", "@bonsai/backend", "better-sqlite3", "electron", "react"], "packages/llm depends only on core."),
  ]),
  layer(["packages/engine/src/**"], [
    pattern(["@bonsai/ipc", "@bonsai/backend", "better-sqlite3", "electron", "react"], "packages/engine sits below ipc/backend and reaches SQLite only through the store."),
  ]),
  layer(["packages/ipc/src/**"], [
    pattern([...nodeBuiltins, "@bonsai/store", "@bonsai/llm", "@bonsai/engine", "@bonsai/backend", "better-sqlite3", "electron", "react"], "packages/ipc is the contract: core types and zod only, usable in the renderer."),
  ]),
  layer(["packages/backend/src/**"], [
    pattern(["electron", "react", "react-dom"], "packages/backend runs in any Node host; Electron stays in apps/desktop."),
  ]),
  layer(["apps/cli/src/**"], [
    pattern(["electron", "react", "react-dom", "better-sqlite3"], "the CLI reaches SQLite only through @bonsai/store."),
  ]),
  layer(["apps/desktop/src/renderer/**"], [
    pattern([...nodeBuiltins, "electron", "@bonsai/store", "@bonsai/llm", "@bonsai/engine", "@bonsai/backend", "better-sqlite3", "openai", "ws"], "the renderer imports only @bonsai/ipc, @bonsai/core, react, zustand and @xyflow/react."),
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
