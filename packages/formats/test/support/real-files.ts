/** The real agent sessions of ../shared/fixtures/real (tests skip with a message where they are absent). */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const REAL_DIR = path.resolve(here, "../../../../../shared/fixtures/real");

function list(agent: string): string[] {
  const dir = path.join(REAL_DIR, agent);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort() : [];
}

export const REAL_FILES = { "claude-code": list("claude-code"), codex: list("codex"), pi: list("pi") };
export const ALL_REAL_FILES = (Object.keys(REAL_FILES) as (keyof typeof REAL_FILES)[]).flatMap((agent) => REAL_FILES[agent].map((name) => ({ agent, name })));
export const HAVE_REAL = ALL_REAL_FILES.length > 0;
if (!HAVE_REAL) console.warn(`real agent sessions not found at ${REAL_DIR}: real-file tests skipped`);

export function realPath(agent: string, name: string): string {
  return path.join(REAL_DIR, agent, name);
}

export function readReal(agent: string, name: string): string {
  return fs.readFileSync(realPath(agent, name), "utf8");
}

/** The parsed lines of a real file (for counting what the README's tables count). */
export function realLines(agent: string, name: string): Record<string, unknown>[] {
  return readReal(agent, name)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The file whose name starts with `prefix` (the README names files by their source). */
export function realFile(agent: keyof typeof REAL_FILES, prefix: string): string {
  const name = REAL_FILES[agent].find((f) => f.startsWith(prefix));
  if (!name) throw new Error(`no real ${agent} file starting with ${prefix}`);
  return name;
}
