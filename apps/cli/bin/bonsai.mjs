#!/usr/bin/env node
// The `bonsai` command. The CLI is bundled to ../dist by `pnpm build` (scripts/build.mjs).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bundle = new URL("../dist/bonsai.mjs", import.meta.url);
if (!existsSync(fileURLToPath(bundle))) {
  process.stderr.write("bonsai: the CLI is not built yet; run `pnpm build` in the Bonsai checkout first\n");
  process.exit(2);
}
await import(bundle.href);
