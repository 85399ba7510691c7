import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { unpackSkeleton, type PackedSkeleton } from "@bonsai/core";
import type { CallResult } from "@bonsai/ipc";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { createBackend, type Backend } from "../src/index";

let dir: string;
let backend: Backend;
afterEach(async () => {
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function ok<T>(r: CallResult): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

describe("open path", () => {
  it("the skeleton of an imported session is read right after the import, so opening it reads nothing again", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-open-"));
    backend = createBackend({ dataDir: path.join(dir, "data"), env: {} });
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 2_000, seed: 7 })));
    const reads = vi.spyOn(backend.store, "getSkeleton");
    const { results } = ok<{ results: { sessionId: string | null }[] }>(await backend.dispatch("importSessions", { paths: [file] }));
    const sessionId = results[0]!.sessionId!;
    expect(reads).not.toHaveBeenCalled(); // not before the import's answer
    await new Promise((r) => setImmediate(r));
    expect(reads).toHaveBeenCalledTimes(1);
    const opened = ok<{ skeleton: PackedSkeleton }>(await backend.dispatch("openSession", { sessionId }));
    expect(reads).toHaveBeenCalledTimes(1);
    expect(opened.skeleton.ids).toHaveLength(2_000);
    expect(unpackSkeleton(opened.skeleton)).toEqual(backend.store.getSkeleton(sessionId));
  });
});
