import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The newcomer's docs stay short and true: docs/ARCHITECTURE.md and docs/PERFORMANCE.md within
 * their sizes, and every repository path they name in backticks exists.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), "../../..");

const LIMITS: Record<string, number> = {
  "docs/ARCHITECTURE.md": 250,
  "docs/PERFORMANCE.md": 300,
};

const TOP_LEVEL = /^(packages|apps|e2e|scripts|docs|prompts|\.ci)\//;
const ROOT_FILES = /^[\w.-]+\.(mjs|cjs|json|yaml|yml|md)$/;

/** The backticked tokens of a Markdown text that name a file or folder of this repository. */
export function repositoryPathsIn(markdown: string): string[] {
  const paths = new Set<string>();
  for (const match of markdown.matchAll(/`([^`\s]+)`/g)) {
    const token = (match[1] ?? "").replace(/[.,;:]+$/, "");
    if (/[*<>{}…|]/.test(token)) continue;
    if (TOP_LEVEL.test(token) || ROOT_FILES.test(token)) paths.add(token);
  }
  return [...paths];
}

describe("docs", () => {
  for (const [file, limit] of Object.entries(LIMITS)) {
    const text = readFileSync(join(root, file), "utf8");

    it(`${file} is at most ${limit} lines`, () => {
      expect(text.split("\n").length).toBeLessThanOrEqual(limit);
    });

    it(`${file} names only paths that exist`, () => {
      const paths = repositoryPathsIn(text);
      expect(paths.length).toBeGreaterThan(0);
      expect(paths.filter((p) => !existsSync(join(root, p)))).toEqual([]);
    });
  }

  it("recognises repository paths and skips the rest", () => {
    const text = "`packages/core/src/tree.ts`, `e2e/specs/*.spec.ts`, `node -e 0`, `getPath`, `eslint.config.mjs`.";
    expect(repositoryPathsIn(text)).toEqual(["packages/core/src/tree.ts", "eslint.config.mjs"]);
  });

  it("the migration count in docs/ARCHITECTURE.md is the store's", () => {
    const text = readFileSync(join(root, "docs/ARCHITECTURE.md"), "utf8");
    const index = readFileSync(join(root, "packages/store/src/migrations/index.ts"), "utf8");
    const count = new Set(index.match(/migration\d{3}\w+/g) ?? []).size;
    expect(text).toContain(`${count} migrations`);
  });
});
