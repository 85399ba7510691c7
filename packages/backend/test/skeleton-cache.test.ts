/** SkeletonCache on a real store with its real (inline) store jobs. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { unpackSkeleton } from "@bonsai/core";
import { InlineStoreJobs, openStore, type Operation, type OperationArgs, type OperationResult } from "@bonsai/store";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { SkeletonCache } from "../src/session-handlers";

describe("the skeleton cache's store jobs", () => {
  it("one read of a skeleton is shared by the calls that ask while it runs; a change starts a new one", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-skeleton-jobs-"));
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 300, seed: 5 })));
    const store = openStore({ path: path.join(dir, "bonsai.db") });
    try {
      const sessionId = (await store.importFile(file)).sessionId as string;
      let reads = 0;
      // the real jobs on the real store, counted
      class CountedJobs extends InlineStoreJobs {
        override call<M extends Operation>(method: M, ...args: OperationArgs<M>): Promise<OperationResult<M>> {
          if (method === "packedSkeleton") reads++;
          return super.call(method, ...args);
        }
      }
      const cache = new SkeletonCache(store, new CountedJobs(store));
      const [a, b] = await Promise.all([cache.packedAsync(sessionId), cache.packedAsync(sessionId)]);
      expect(reads).toBe(1);
      expect(b).toBe(a);
      expect(unpackSkeleton(a).nodes).toHaveLength(300);
      await cache.packedAsync(sessionId); // held now
      expect(reads).toBe(1);
      cache.invalidate(sessionId);
      await cache.packedAsync(sessionId);
      expect(reads).toBe(2);
    } finally {
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
