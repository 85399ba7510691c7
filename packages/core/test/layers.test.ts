/**
 * The layer rules of eslint.config.mjs, one per package: each rejects a wrong arrow in that package's
 * product code (what `pnpm lint` then fails on) and lets a right one through; nothing but the CLI
 * imports the team archive. Runs ESLint itself with the repository's config on a probe file's text.
 */
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const eslint = new ESLint({ cwd: ROOT });

/** The layer messages ESLint gives an import of `specifier` from a file in `folder`. */
async function layerErrors(folder: string, specifier: string): Promise<string[]> {
  const code = `import * as probe from ${JSON.stringify(specifier)};\nexport const used = probe;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, folder, "layer-probe.ts") });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

/** For every package's product folder: an import its layer forbids, and one it allows. */
const PACKAGES: { folder: string; wrong: string; right: string }[] = [
  { folder: "packages/core/src", wrong: "node:fs", right: "./errors" },
  { folder: "packages/formats/src", wrong: "@bonsai/store", right: "@bonsai/core" },
  { folder: "packages/store/src", wrong: "@bonsai/engine", right: "@bonsai/formats" },
  { folder: "packages/llm/src", wrong: "@bonsai/store", right: "@bonsai/core" },
  { folder: "packages/engine/src", wrong: "@bonsai/backend", right: "@bonsai/store" },
  { folder: "packages/ipc/src", wrong: "node:fs", right: "zod" },
  { folder: "packages/backend/src", wrong: "electron", right: "@bonsai/engine" },
  { folder: "packages/team/src", wrong: "@bonsai/engine", right: "@bonsai/backend" },
  { folder: "packages/testkit/src", wrong: "@bonsai/store", right: "@bonsai/core" },
  { folder: "packages/bench/bench", wrong: "@bonsai/team", right: "@bonsai/store" },
  { folder: "apps/cli/src", wrong: "better-sqlite3", right: "@bonsai/team" },
  { folder: "apps/desktop/src/main", wrong: "@bonsai/engine", right: "@bonsai/backend" },
  { folder: "apps/desktop/src/renderer", wrong: "@bonsai/store", right: "@bonsai/ipc" },
];

describe("layer rules (eslint.config.mjs)", () => {
  for (const { folder, wrong, right } of PACKAGES) {
    it(`${folder}: ${wrong} is refused, ${right} is not`, async () => {
      expect(await layerErrors(folder, wrong)).not.toEqual([]);
      expect(await layerErrors(folder, right)).toEqual([]);
    });
  }

  it("nothing but the CLI imports the team archive", async () => {
    for (const { folder } of PACKAGES.filter((p) => p.folder !== "apps/cli/src" && p.folder !== "packages/team/src")) {
      expect(await layerErrors(folder, "@bonsai/team"), folder).not.toEqual([]);
    }
  });
});
