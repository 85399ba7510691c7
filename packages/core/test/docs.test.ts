import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The newcomer's docs stay short and true: docs/ARCHITECTURE.md and docs/PERFORMANCE.md within
 * their sizes, and every repository path they name in backticks exists — a path from the root
 * (`packages/store/src/modules/`, `eslint.config.mjs`) as written, a shorter one (`source/blocks.ts`,
 * `sync.ts`) as the end of some file or folder of the repository.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), "../../..");

const LIMITS: Record<string, number> = {
  "docs/ARCHITECTURE.md": 250,
  "docs/PERFORMANCE.md": 300,
};

const FROM_ROOT = /^(packages|apps|e2e|scripts|docs|prompts|\.ci)\/|^[\w.-]+\.(mjs|cjs|json|yaml|yml)$/;
const SOURCE_FILE = /\.(ts|tsx|mjs|cjs)$/;
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "out", "release", ".git", ".runtime", ".bonsai-dev", "test-results"]);

export type PathToken = { path: string; fromRoot: boolean };

/** The backticked tokens of a Markdown text that name a file or folder of this repository. */
export function repositoryPathsIn(markdown: string): PathToken[] {
  const found = new Map<string, PathToken>();
  for (const match of markdown.matchAll(/`([^`\s]+)`/g)) {
    const token = (match[1] ?? "").replace(/[.,;:]+$/, "");
    if (/[*<>{}…|()]/.test(token) || /^(@|\.\.\/|~|\$|\/|-|https?:)/.test(token)) continue;
    if (FROM_ROOT.test(token)) found.set(token, { path: token, fromRoot: true });
    else if (SOURCE_FILE.test(token) || /^[\w-]+\/[\w./-]+$/.test(token)) found.set(token, { path: token, fromRoot: false });
  }
  return [...found.values()];
}

/** Every file and folder of the repository (build output and dependencies left out), relative to its root. */
function repositoryEntries(dir = "", into: string[] = []): string[] {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    into.push(path);
    if (entry.isDirectory()) repositoryEntries(path, into);
  }
  return into;
}

function missingPaths(tokens: PathToken[], entries: string[]): string[] {
  return tokens
    .filter(({ path, fromRoot }) => {
      if (fromRoot) return !existsSync(join(root, path));
      const tail = `/${path.replace(/\/$/, "")}`;
      return !entries.some((e) => e.endsWith(tail) || e === tail.slice(1));
    })
    .map((t) => t.path);
}

describe("docs", () => {
  const entries = repositoryEntries();

  for (const [file, limit] of Object.entries(LIMITS)) {
    const text = readFileSync(join(root, file), "utf8");

    it(`${file} is at most ${limit} lines`, () => {
      expect(text.replace(/\n$/, "").split("\n").length).toBeLessThanOrEqual(limit);
    });

    it(`${file} names only paths that exist`, () => {
      const tokens = repositoryPathsIn(text);
      expect(tokens.length).toBeGreaterThan(0);
      expect(missingPaths(tokens, entries)).toEqual([]);
    });
  }

  it("recognises repository paths and skips the rest", () => {
    const text = "`packages/core/src/tree.ts`, `e2e/specs/*.spec.ts`, `node -e 0`, `getPath`, `eslint.config.mjs`, `sync.ts`, `@bonsai/store/reader`.";
    expect(repositoryPathsIn(text)).toEqual([
      { path: "packages/core/src/tree.ts", fromRoot: true },
      { path: "eslint.config.mjs", fromRoot: true },
      { path: "sync.ts", fromRoot: false },
    ]);
  });

  it("finds a missing path, from the root or shortened", () => {
    const tokens = repositoryPathsIn("`packages/core/src/no-such-file.ts`, `source/no-such.ts`, `source/blocks.ts`, `entry-writer.ts`");
    expect(missingPaths(tokens, entries)).toEqual(["packages/core/src/no-such-file.ts", "source/no-such.ts"]);
  });

  it("the migration count in docs/ARCHITECTURE.md is the store's", () => {
    const text = readFileSync(join(root, "docs/ARCHITECTURE.md"), "utf8");
    const index = readFileSync(join(root, "packages/store/src/migrations/index.ts"), "utf8");
    const count = new Set(index.match(/migration\d{3}\w+/g) ?? []).size;
    expect(text).toContain(`${count} migrations`);
  });
});
