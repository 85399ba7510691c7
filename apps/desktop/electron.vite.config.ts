/**
 * electron-vite: main (Node, owns the backend), preload (sandboxed, CommonJS, one file), renderer
 * (React). Workspace packages export TypeScript source, so they are bundled into main and preload;
 * only better-sqlite3 (a native module) stays external and is loaded from node_modules.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "electron-vite";
import react from "@vitejs/plugin-react";

const here = fileURLToPath(new URL(".", import.meta.url));
const workspace = ["@bonsai/core", "@bonsai/ipc", "@bonsai/backend", "@bonsai/store", "@bonsai/engine", "@bonsai/llm"];

export default defineConfig({
  main: {
    build: {
      externalizeDeps: { exclude: workspace },
      rollupOptions: {
        input: {
          index: resolve(here, "src/main/index.ts"),
          // the backend's utility process (store + engine), forked by main
          "backend-host": resolve(here, "src/main/backend-host.ts"),
          // the engine's compaction planner threads (main looks for out/main/compaction-worker.js)
          "compaction-worker": resolve(here, "../../packages/engine/src/worker/compaction-worker.ts"),
          // the store's worker thread (imports, exports, rewrites), found beside compaction-worker.js
          "store-worker": resolve(here, "../../packages/store/src/jobs/store-worker.ts"),
        },
        external: ["better-sqlite3", "electron"],
      },
    },
  },
  preload: {
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(here, "src/preload/index.ts") },
        external: ["electron"],
        output: { format: "cjs", entryFileNames: "[name].cjs" },
      },
    },
  },
  renderer: {
    root: resolve(here, "src/renderer"),
    base: "./",
    plugins: [react()],
    build: {
      outDir: resolve(here, "out/renderer"),
      rollupOptions: { input: resolve(here, "src/renderer/index.html") },
      chunkSizeWarningLimit: 2000,
    },
  },
});
