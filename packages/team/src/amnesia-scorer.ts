/**
 * Scoring one archived session for the amnesia report over many sessions (archive-amnesia.ts): in
 * this thread (tests, a server without the bundled worker), or on the team's amnesia worker
 * (worker/amnesia-worker.ts) through the one worker RPC, so that a long session's scoring never
 * holds the thread that serves requests. The worker starts with the first session to score, takes
 * one session at a time in order, and does not keep the process alive; if it fails, the session it
 * held is refused and the next one starts a new worker.
 */
import { WorkerRpc, workerEntryUrl } from "@bonsai/store/worker-rpc";
import type { AmnesiaSessionInfo, AmnesiaSessionRow } from "@bonsai/core";
import { amnesiaScoring, type AmnesiaScoring } from "./amnesia-scoring";

export type AmnesiaScore = (info: AmnesiaSessionInfo, lines: string[]) => Promise<AmnesiaSessionRow | null>;

export const scoreInThisThread: AmnesiaScore = async (info, lines) => amnesiaScoring.score(info, lines);

/** The amnesia worker's entry beside another bundled worker entry (amnesia-worker.mjs), or its source. */
export function amnesiaWorkerUrl(beside?: URL): URL {
  // a name, not a literal in new URL(): bundlers would otherwise copy the source file as an asset
  const source = "./worker/amnesia-worker.ts";
  return workerEntryUrl("amnesia-worker", new URL(source, import.meta.url), beside);
}

export class WorkerAmnesiaScorer {
  readonly #rpc: WorkerRpc<AmnesiaScoring>;

  /** `url`: the amnesia worker's entry (amnesiaWorkerUrl) */
  constructor(url: URL) {
    this.#rpc = new WorkerRpc<AmnesiaScoring>({ url, label: "the amnesia worker" });
  }

  readonly score: AmnesiaScore = (info, lines) => this.#rpc.call("score", info, lines);

  close(): Promise<void> {
    return this.#rpc.close();
  }
}
