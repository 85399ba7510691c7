/** A real backend on a temporary data folder per test, sessions uploaded as the window uploads them. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach } from "vitest";
import { contract, type CallResult, type Dispatch, type MethodName, type MethodOutput } from "@bonsai/ipc";
import type { SqliteSessionStore } from "@bonsai/store";
import { createBackend, type Backend } from "../src/index";

/**
 * Registers the hooks; the returned function gives the current test's backend (its data folder is a
 * new temporary folder; `env(dataDir)` gives its environment, default none).
 */
export function useBackend(env: (dataDir: string) => NodeJS.ProcessEnv = () => ({})): () => Backend {
  let dir = "";
  let backend: Backend | undefined;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-backend-"));
    backend = createBackend({ dataDir: dir, env: env(dir) });
  });
  afterEach(async () => {
    await backend?.close();
    backend = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!backend) throw new Error("no backend outside a test");
    return backend;
  };
}

export function ok<T = unknown>(r: CallResult): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

/** Calls `method` on `backend` and parses the answer with the contract's output schema (an error answer throws). */
export async function callParsed<M extends MethodName>(backend: Backend, method: M, params: unknown): Promise<MethodOutput<M>> {
  return contract[method].output.parse(ok(await backend.dispatch(method, params))) as MethodOutput<M>;
}

/** Sends `content` as the window does (beginUpload, then uploadChunk in order) and returns the upload id. */
export async function upload(dispatch: Dispatch, name: string, content: string | Buffer): Promise<string> {
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  const { uploadId, chunkBytes } = ok<{ uploadId: string; chunkBytes: number }>(await dispatch("beginUpload", { name, size: bytes.length }));
  for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
    const data = bytes.subarray(offset, offset + chunkBytes).toString("base64");
    ok(await dispatch("uploadChunk", { uploadId, offset, data }));
  }
  return uploadId;
}

/** Uploads and imports one file; returns the import's results. */
export async function importUpload(dispatch: Dispatch, name: string, content: string | Buffer, requestId?: string) {
  const uploadId = await upload(dispatch, name, content);
  return ok<{ results: { ok: boolean; sessionId: string; source: string; entriesImported: number; warnings: string[]; error: string | null }[] }>(
    await dispatch("importSessions", { uploads: [uploadId], ...(requestId ? { requestId } : {}) }),
  );
}

/** Imports one session (header and entries as objects) through the backend; returns its id. */
export async function importLines(backend: Backend, lines: readonly object[]): Promise<string> {
  const content = lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  const { results } = await importUpload(backend.dispatch, "s.jsonl", content, "r");
  return results[0]!.sessionId;
}

/**
 * Counts the packed skeletons asked of the backend's store (by session), and those of them it read
 * from its rows because it held none (no worker: both on this thread).
 */
export function countSkeletonReads(backend: Backend): { asked: string[]; fromRows: string[] } {
  const store = backend.store as SqliteSessionStore;
  const counts = { asked: [] as string[], fromRows: [] as string[] };
  const ask = store.getPackedSkeletonJson.bind(store);
  store.getPackedSkeletonJson = (id: string) => {
    counts.asked.push(id);
    if (!store.heldSkeletons().includes(id)) counts.fromRows.push(id);
    return ask(id);
  };
  return counts;
}
