/**
 * ArchiveStore is the one read path of the archive: the conformance suite tests it
 * (conformance.test.ts), and this test checks that production reads sessions through nothing else.
 * No product file outside ArchiveStore's own modules holds SQL that reads the sessions or their
 * entries (migrations and the push's writes aside), nothing else imports those modules' code, and
 * the server's routes, the page's handlers and its session copies use ArchiveStore.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(__dirname, "../src");

/** ArchiveStore and the modules it reads with: imported by nothing else */
const READ_PATH = ["archive-store.ts", "archive-resolver.ts", "archive-summary.ts", "reads.ts", "session-list.ts", "archive-amnesia.ts", "archive-search.ts", "archive-commits.ts", "archive-derived-reads.ts", "app/direct-reads.ts"];

/** files with SQL on sessions or entries that is not a read of them */
const NOT_READS: Record<string, string> = {
  "receive.ts": "the push's writes (and the row it appends to, under its lock)",
};

function productFiles(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === "migrations" ? [] : productFiles(full);
    return d.name.endsWith(".ts") ? [path.relative(SRC, full).split(path.sep).join("/")] : [];
  });
}

const SESSION_SQL = /\b(FROM|JOIN)\s+(sessions|entries)\b/iu;

describe("one read path", () => {
  const files = productFiles();

  it("finds SQL reading sessions or entries only in ArchiveStore's modules", () => {
    const reading = files.filter((f) => SESSION_SQL.test(fs.readFileSync(path.join(SRC, f), "utf8")));
    expect(reading.length).toBeGreaterThan(3);
    expect(reading.filter((f) => !READ_PATH.includes(f) && NOT_READS[f] === undefined)).toEqual([]);
  });

  it("lets nothing but ArchiveStore's modules import their code", () => {
    const importsOf = (file: string): string[] => {
      const text = fs.readFileSync(path.join(SRC, file), "utf8");
      // value imports and re-exports only: a type names no code that runs
      return [...text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"(\.[^"]+)"/gmu)].map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1] as string)) + ".ts");
    };
    const leaks = files.filter((f) => !READ_PATH.includes(f)).flatMap((f) => importsOf(f).filter((target) => READ_PATH.includes(target) && target !== "archive-store.ts").map((target) => `${f} -> ${target}`));
    expect(leaks).toEqual([]);
  });

  it("runs the server's routes, the page's handlers, its opens and its copies on ArchiveStore", () => {
    for (const file of ["server.ts", "app/archive-handlers.ts", "app/page-open.ts", "app/archive-app.ts"]) {
      expect(fs.readFileSync(path.join(SRC, file), "utf8"), file).toMatch(/import \{[^}]*\bArchiveStore\b[^}]*\} from "\.\.?\/archive-store"/u);
    }
    expect(fs.readFileSync(path.join(SRC, "app/session-cache.ts"), "utf8")).toMatch(/archive\.openJsonl\(/u);
  });
});
