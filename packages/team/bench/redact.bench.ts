/**
 * Redaction benchmark (`pnpm bench redact`): what the push's redactor costs, on its own (no
 * network, no PostgreSQL), for the real sessions of each agent and for the generated short entries
 * `pnpm bench team` pushes. Entries are redacted as the push does it: 64 at a time, every string and
 * key, JSON inside strings decoded. Each figure is the median of 3 runs (wall and CPU time).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { markdownTable, median, peakRssMb } from "@bonsai/testkit";
import { makeRedactor } from "../src/index";

const here = path.dirname(fileURLToPath(import.meta.url));
const real = path.resolve(here, "../../../../shared/fixtures/real");
const AT_ONCE = 64;
const GENERATED = Number(process.env.BONSAI_BENCH_ENTRIES ?? 20_000);

function generated(count: number): unknown[] {
  const entries: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const id = i.toString(16).padStart(8, "0");
    entries.push({ type: "message", id, parentId: i === 0 ? null : (i - 1).toString(16).padStart(8, "0"), timestamp: "2026-01-01T00:00:00Z", message: { role: i % 2 ? "assistant" : "user", content: [{ type: "text", text: `step ${i}: ran the tests, fixed the parser and moved on to the next file` }] } });
  }
  return entries;
}

function realEntries(agent: string): unknown[] {
  const dir = path.join(real, agent);
  if (!fs.existsSync(dir)) return [];
  const out: unknown[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    for (const line of fs.readFileSync(path.join(dir, name), "utf8").split("\n")) if (line.trim() !== "") out.push(JSON.parse(line));
  }
  return out;
}

async function measure(entries: readonly unknown[]): Promise<{ ms: number; cpuMs: number; found: number }> {
  const redactor = makeRedactor();
  const wall: number[] = [];
  const cpu: number[] = [];
  let found = 0;
  for (let run = 0; run < 3; run++) {
    const counts = new Map<string, number>();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let at = 0; at < entries.length; at += AT_ONCE) await redactor.redact(entries.slice(at, at + AT_ONCE), counts);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    found = [...counts.values()].reduce((a, b) => a + b, 0);
  }
  return { ms: median(wall), cpuMs: median(cpu), found };
}

const cases: [string, unknown[]][] = [
  ["real pi sessions (6 files)", realEntries("pi")],
  ["real Claude Code sessions (8 files)", realEntries("claude-code")],
  ["real Codex sessions (6 files)", realEntries("codex")],
  [`generated short entries (as pnpm bench team pushes)`, generated(GENERATED)],
];
const rows: (string | number)[][] = [];
for (const [name, entries] of cases) {
  if (entries.length === 0) continue;
  const mb = Buffer.byteLength(JSON.stringify(entries)) / 1e6;
  const { ms, cpuMs, found } = await measure(entries);
  rows.push([name, entries.length.toLocaleString("en-US"), mb.toFixed(1), `${(ms / 1000).toFixed(2)} s`, `${(cpuMs / 1000).toFixed(2)} s`, (mb / (ms / 1000)).toFixed(1), Math.round(entries.length / (ms / 1000)).toLocaleString("en-US"), found]);
}
console.log(markdownTable(["entries", "count", "MB (JSON)", "wall", "CPU", "MB/s", "entries/s", "markers"], rows));
console.log(`\npeak RSS ${peakRssMb().toFixed(0)} MB`);
