/** The one store object the backend's handlers and engine hold (hostStore): reads on the host's store, the bulk work through the store's jobs. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRUNE_CONFIG } from "@bonsai/core";
import { createEngine } from "@bonsai/engine";
import { hostStore, InlineStoreJobs, openStore, type Operation, type OperationArgs, type OperationResult } from "@bonsai/store";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";

describe("the host's store", () => {
  it("prunes through the store's calls (the worker's, in the app), and reads the host's store", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-engine-store-"));
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 400, seed: 7 })));
    const store = openStore({ path: path.join(dir, "bonsai.db") });
    try {
      const sessionId = (await store.importFile(file)).sessionId as string;
      const calls: string[] = [];
      // the real calls on the real store, named as they are made
      class NamedJobs extends InlineStoreJobs {
        override call<M extends Operation>(method: M, ...args: OperationArgs<M>): Promise<OperationResult<M>> {
          calls.push(method);
          return super.call(method, ...args);
        }
      }
      const engine = createEngine({ store: hostStore(store, new NamedJobs(store)), dataDir: dir, pruneConfig: { ...DEFAULT_PRUNE_CONFIG, protectTokens: 0, minimumSavings: 0 } });
      const outcome = await engine.pruneToolOutputs(sessionId);
      expect(outcome.prunedCount).toBeGreaterThan(0);
      expect(calls).toEqual(["applyPruning"]);
      expect(store.restorePruned(sessionId)).toBe(outcome.prunedCount);

      // a job method answers through a promise, a read at once on the host's store
      const host = hostStore(store, new NamedJobs(store));
      expect(host.getSession(sessionId)?.id).toBe(sessionId);
      const deleting = host.deleteSession(sessionId);
      expect(deleting).toBeInstanceOf(Promise);
      await deleting;
      expect(calls).toEqual(["applyPruning", "deleteSession"]);
      expect(store.getSession(sessionId)).toBeUndefined();
    } finally {
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
