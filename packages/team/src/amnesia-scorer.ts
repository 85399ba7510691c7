/**
 * Scoring one archived session for the amnesia report over many sessions (archive-amnesia.ts): in
 * this thread (tests, a server without the bundled worker), or on a worker thread of the host's
 * compaction-worker (`{t: "amnesia-row"}` messages), so that a long session's scoring never holds
 * the thread that serves requests. The worker starts with the first session to score, takes one
 * session at a time in order, and does not keep the process alive; if it fails, the sessions it
 * held are refused and the next one starts a new worker.
 */
import type { Worker } from "node:worker_threads";
import { amnesiaRowOfLines, type AmnesiaSessionInfo, type AmnesiaSessionRow } from "@bonsai/core";
import { spawnModuleWorker } from "@bonsai/store";

export type AmnesiaScore = (info: AmnesiaSessionInfo, lines: string[]) => Promise<AmnesiaSessionRow | null>;

export const scoreInThisThread: AmnesiaScore = async (info, lines) => amnesiaRowOfLines(info, lines);

type Reply = { t: "amnesia-row"; id: number; ok: true; row: AmnesiaSessionRow | null } | { t: "amnesia-row"; id: number; ok: false; error: string };

export class WorkerAmnesiaScorer {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (row: AmnesiaSessionRow | null) => void; reject: (error: Error) => void }>();

  constructor(private readonly url: URL) {}

  readonly score: AmnesiaScore = (info, lines) =>
    new Promise((resolve, reject) => {
      const id = ++this.nextId;
      this.waiting.set(id, { resolve, reject });
      this.started().postMessage({ t: "amnesia-row", id, info, lines });
    });

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnModuleWorker(this.url);
    worker.unref();
    worker.on("message", (reply: Reply) => {
      const job = this.waiting.get(reply.id);
      if (!job) return;
      this.waiting.delete(reply.id);
      if (reply.ok) job.resolve(reply.row);
      else job.reject(new Error(`a session could not be scored: ${reply.error}`));
    });
    const failed = (error: Error): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const job of this.waiting.values()) job.reject(error);
      this.waiting.clear();
    };
    worker.on("error", failed);
    worker.on("exit", (code) => failed(new Error(`the amnesia worker stopped (exit ${code})`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
