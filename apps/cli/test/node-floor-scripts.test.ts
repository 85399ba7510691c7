/**
 * The Node floor at every entry point: each root script of package.json runs
 * scripts/require-node24.cjs first, pnpm loads .pnpmfile.cjs (which runs it) before any command,
 * `pnpm install` included. On a Node older than 24 each stops with the same one line naming
 * scripts/node24.sh, status 1, before a native module loads (no crash, no "Unsupported engine").
 * Run for real with the system's older Node and its pnpm where the machine has them (a Node 20 at
 * /usr/bin/node here); the guard alone is also run on this Node made to look older.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const guard = path.join(root, "scripts/require-node24.cjs");
const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
const dir = mkdtempSync(path.join(tmpdir(), "bonsai-floor-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const line = (version: string, command: string) => `bonsai: needs Node 24 or newer, not ${version}; run it as \`scripts/node24.sh pnpm ${command}\`\n`;

/** a system Node older than 24 and a pnpm it runs, when this machine has both */
function olderSystemNode(): { node: string; version: string; pnpm: string } | null {
  const node = "/usr/bin/node";
  if (!existsSync(node)) return null;
  const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
  if (Number(version.slice(1).split(".")[0]) >= 24) return null;
  const which = spawnSync("sh", ["-c", "PATH=/usr/bin:/bin command -v pnpm"], { encoding: "utf8" }).stdout.trim();
  return which ? { node, version, pnpm: which } : null;
}
const older = olderSystemNode();

describe("the Node floor at every entry point", () => {
  it("every root script runs the guard first; pnpm install runs it as preinstall and through .pnpmfile.cjs", () => {
    for (const [name, command] of Object.entries(scripts)) expect(command.startsWith("node scripts/require-node24.cjs"), name).toBe(true);
    expect(scripts.preinstall).toBe("node scripts/require-node24.cjs");
    for (const name of ["test:unit", "bench", "lint", "typecheck", "build", "package", "test:e2e", "start", "bonsai", "test"]) expect(scripts[name], name).toBeDefined();
    expect(readFileSync(path.join(root, ".pnpmfile.cjs"), "utf8")).toContain('require("./scripts/require-node24.cjs")');
  });

  it("the guard on a Node that says it is 22: the one line with the script's name, status 1; on this Node: nothing", () => {
    const preload = path.join(dir, "older-node.cjs");
    writeFileSync(preload, 'Object.defineProperty(process, "version", { value: "v22.12.0" });\n');
    for (const [event, command] of [["test:unit", "test:unit"], ["preinstall", "install"], ["bench", "bench"]]) {
      const r = spawnSync(process.execPath, ["--require", preload, guard], { encoding: "utf8", env: { ...process.env, npm_lifecycle_event: event } });
      expect([r.status, r.stderr, r.stdout]).toEqual([1, line("v22.12.0", command!), ""]);
    }
    const ok = spawnSync(process.execPath, [guard], { encoding: "utf8", env: { ...process.env, npm_lifecycle_event: "test:unit" } });
    expect([ok.status, ok.stderr, ok.stdout]).toEqual([0, "", ""]);
  });

  describe.skipIf(!older)(`with the system's ${older?.version ?? "older Node"} and its pnpm`, () => {
    const env = { ...process.env, PATH: "/usr/bin:/bin", npm_config_nodedir: "", npm_lifecycle_event: "" };
    const commands = [...["test:unit", "bench", "lint", "typecheck", "build", "package", "test:e2e", "start", "test"].map((s) => [s]), ["-s", "bonsai", "ls"], ["install"], ["run", "build:cli"]];

    it.each(commands.map((args) => [args.join(" "), args] as const))("pnpm %s: the one line, status 1, nothing else", (_name, args) => {
      const r = spawnSync(older!.pnpm, args, { cwd: root, encoding: "utf8", env, timeout: 60_000 });
      expect(r.signal).toBeNull();
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(line(older!.version, args.join(" ")));
      expect(r.stdout).toBe("");
    });

    it("node on a root script's own file: the guard's line (npm run, or any runner without pnpm's file)", () => {
      const r = spawnSync(older!.node, [guard], { cwd: root, encoding: "utf8", env: { ...env, npm_lifecycle_event: "lint" } });
      expect([r.status, r.stderr]).toEqual([1, line(older!.version, "lint")]);
    });
  });
});
