/**
 * Engine benchmark: the overhead of a compaction without model time, on a session whose live
 * context is about 200,000 estimated tokens (a linear coding session of user requests, assistant
 * replies with tool calls and tool results). Stored in a real SQLite file.
 *
 * - instant summarizer: a summarizer that answers at once, so the time is Bonsai's own work (load the
 *   branch, plan, serialize, assemble three prompts, hooks, file tags); dry run, and with the entry
 *   appended (one transaction).
 * - offline summarizer: the same plus the extractive offline summary of ~800 KB of conversation.
 * - worker pool: the planning in a worker thread; the main thread's busy time is measured with
 *   performance.eventLoopUtilization (and the longest event-loop delay with monitorEventLoopDelay,
 *   which also counts waiting for a core on a loaded machine).
 *
 *   node --import tsx packages/engine/bench/engine.bench.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { estimateTokens, type AgentMessage } from "@bonsai/core";
import { openStore } from "@bonsai/store";
import { markdownTable, median, peakRssMb } from "../../testkit/src/bench";
import { createEngine, type Engine } from "../src/index";
import type { Summarizer } from "@bonsai/llm";

const TARGET_TOKENS = 200_000;
const REPEATS = 5;

const instant: Summarizer = { kind: "openai", label: "instant", complete: async () => ({ text: "## Goal\nS", stopReason: "stop" }) };

function words(n: number, seed: number): string {
  const vocab = ["parser", "token", "render", "cache", "error", "build", "test", "module", "config", "update", "schema", "query"];
  let s = "";
  for (let i = 0; i < n; i++) s += `${vocab[(seed * 7 + i * 13) % vocab.length]} `;
  return s;
}

function fillSession(store: ReturnType<typeof openStore>, sessionId: string): { entries: number; tokens: number } {
  let tokens = 0;
  let entries = 0;
  let turn = 0;
  const add = (message: AgentMessage) => {
    store.appendEntry(sessionId, { type: "message", message });
    tokens += estimateTokens(message);
    entries++;
  };
  while (tokens < TARGET_TOKENS) {
    const ts = Date.now();
    add({ role: "user", content: `Please change src/m${turn}.ts: ${words(60, turn)}`, timestamp: ts });
    add({
      role: "assistant",
      content: [
        { type: "text", text: `I'll read and edit the file. ${words(40, turn + 1)}` },
        { type: "toolCall", id: `r${turn}`, name: "read", arguments: { path: `src/m${turn}.ts` } },
      ],
      api: "openai-completions",
      provider: "openai",
      model: "m",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
      stopReason: "toolUse",
      timestamp: ts,
    });
    add({ role: "toolResult", toolCallId: `r${turn}`, toolName: "read", content: [{ type: "text", text: words(700, turn + 2) }], isError: false, timestamp: ts });
    add({
      role: "assistant",
      content: [{ type: "toolCall", id: `e${turn}`, name: "edit", arguments: { path: `src/m${turn}.ts`, oldText: words(20, turn), newText: words(22, turn) } }],
      api: "openai-completions",
      provider: "openai",
      model: "m",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
      stopReason: "toolUse",
      timestamp: ts,
    });
    add({ role: "toolResult", toolCallId: `e${turn}`, toolName: "edit", content: [{ type: "text", text: "Applied." }], isError: false, timestamp: ts });
    turn++;
  }
  return { entries, tokens };
}

async function time(fn: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const samples: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { ms: median(samples), cpuMs: median(cpu) };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "bonsai-engine-bench-"));
  const dbPath = join(dir, "bonsai.db");
  const store = openStore({ path: dbPath });
  try {
    const sessionId = store.createSession({ cwd: "/bench" }).id;
    const { entries, tokens } = fillSession(store, sessionId);
    const modelSettings = { model: { baseUrl: "http://127.0.0.1:9/v1", model: "instant" } };
    const rows: (string | number)[][] = [];
    const engines: Engine[] = [];
    const make = (options: Partial<Parameters<typeof createEngine>[0]>) => {
      const e = createEngine({ store, ...options });
      engines.push(e);
      return e;
    };

    const inline = make({ settings: modelSettings, summarizerFactory: () => instant });
    await inline.compact(sessionId, { dryRun: true }); // warm-up (JIT, statement cache)
    const dry = await time(() => inline.compact(sessionId, { dryRun: true }));
    rows.push(["instant summarizer, dry run (inline)", dry.ms.toFixed(1), dry.cpuMs.toFixed(1)]);

    const preview = await inline.compact(sessionId, { dryRun: true });
    const leaf = store.getLeaf(sessionId);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const committed = await inline.commitCompaction(sessionId, preview.result, leaf);
    const commitMs = performance.now() - t0;
    const cc = process.cpuUsage(c0);
    rows.push(["append the compaction entry (commitCompaction)", commitMs.toFixed(1), ((cc.user + cc.system) / 1000).toFixed(1)]);
    // back to the uncompacted leaf for the next runs
    store.setLeaf(sessionId, leaf);
    void committed;

    const offline = make({ offline: true });
    await offline.compact(sessionId, { dryRun: true });
    const off = await time(() => offline.compact(sessionId, { dryRun: true }));
    rows.push(["offline summarizer, dry run (inline)", off.ms.toFixed(1), off.cpuMs.toFixed(1)]);

    const pooled = make({ settings: modelSettings, summarizerFactory: () => instant, worker: { url: new URL("../src/worker/compaction-worker.ts", import.meta.url), dbPath, size: 1 } });
    await pooled.compact(sessionId, { dryRun: true }); // starts the worker
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    const elu0 = performance.eventLoopUtilization();
    const pool = await time(() => pooled.compact(sessionId, { dryRun: true }));
    const elu = performance.eventLoopUtilization(elu0);
    histogram.disable();
    const inlineElu0 = performance.eventLoopUtilization();
    await time(() => inline.compact(sessionId, { dryRun: true }));
    const inlineElu = performance.eventLoopUtilization(inlineElu0);
    rows.push(["instant summarizer, dry run (worker pool)", pool.ms.toFixed(1), pool.cpuMs.toFixed(1)]);
    rows.push(["  main-thread busy time per run: worker pool / inline", `${(elu.active / REPEATS).toFixed(1)} / ${(inlineElu.active / REPEATS).toFixed(1)}`, ""]);
    rows.push(["  longest event-loop delay during the worker runs", (histogram.max / 1e6).toFixed(1), ""]);

    console.log(`session: ${entries} entries, ${tokens} estimated tokens in the live context; median of ${REPEATS} runs; peak RSS ${peakRssMb().toFixed(0)} MB\n`);
    console.log(markdownTable(["operation (no model time)", "wall (ms)", "main-process CPU (ms)"], rows));
    for (const e of engines) await e.close();
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
