/** Conformance: import of real pi, Claude Code and Codex files, and the stored reads of a session. */
import { buildSessionContext, packSkeleton, summarizeContext, unpackSkeleton, type SessionEntry } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { SessionLookupError } from "../session-store";
import { jsonLines, withStore, writePiSession, type RealFixtures, type StoreFactory } from "./harness";

/** The ids of a pi file's entries, in file order (the header left out). */
function fileEntryIds(file: string): string[] {
  return jsonLines(file)
    .slice(1)
    .map((e) => e.id as string);
}

export function describeImport(factory: StoreFactory, fx: RealFixtures, skip: string): void {
  describe.skipIf(skip !== "")("import", () => {
    it("imports a pi file once: entries in file order, its header, a second import changes nothing", async () => {
      await withStore(factory, async ({ store }) => {
        const report = await store.importFile(fx.piBranched);
        expect(report.status).toBe("imported");
        const id = report.sessionId!;
        const header = jsonLines(fx.piBranched)[0]!;
        expect(await store.getHeader(id)).toMatchObject({ id: header.id, cwd: header.cwd, version: 3 });
        expect((await store.loadEntries(id)).map((e) => e.id)).toEqual(fileEntryIds(fx.piBranched));
        expect(report.entriesAdded).toBe(fileEntryIds(fx.piBranched).length);
        expect((await store.importFile(fx.piBranched)).status).toBe("unchanged");
        expect(await store.listSessions()).toHaveLength(1);
      });
    });

    it("records each file's path and format; Claude Code and Codex sessions are read-only", async () => {
      await withStore(factory, async ({ store }) => {
        const pi = (await store.importFile(fx.piTiny)).sessionId!;
        const cc = (await store.importFile(fx.claudeCode)).sessionId!;
        const codex = (await store.importFile(fx.codex)).sessionId!;
        expect(await store.getSession(pi)).toMatchObject({ sourceFormat: "pi-jsonl", sourcePath: fx.piTiny, readOnly: null });
        expect(await store.getSession(cc)).toMatchObject({ sourceFormat: "claude-code", sourcePath: fx.claudeCode, readOnly: expect.any(String) });
        expect(await store.getSession(codex)).toMatchObject({ sourceFormat: "codex", sourcePath: fx.codex, readOnly: expect.any(String) });
      });
    });

  });
}

export function describeStoredReads(factory: StoreFactory, fx: RealFixtures, skip: string): void {
  describe.skipIf(skip !== "")("stored reads", () => {
    /** the real fork: assistant fa43908d has two children, the last line is the leaf */
    const FORK = "fa43908d";

    it("lists pi, Claude Code and Codex sessions with their format and counts", async () => {
      await withStore(factory, async ({ load, store }) => {
        const pi = await load(fx.piTiny);
        const cc = await load(fx.claudeCode);
        const codex = await load(fx.codex);
        const byId = new Map((await store.listSessions()).map((s) => [s.id, s]));
        expect([...byId.keys()].sort()).toEqual([pi, cc, codex].sort());
        expect([pi, cc, codex].map((id) => byId.get(id)!.sourceFormat)).toEqual(["pi-jsonl", "claude-code", "codex"]);
        for (const [id, summary] of byId) {
          expect(await store.getSession(id)).toEqual(summary);
          expect(await store.loadEntries(id)).toHaveLength(summary.entryCount);
          expect(summary.entryCount).toBeGreaterThan(0);
        }
        expect(await store.getSession("no-such-session")).toBeUndefined();
      });
    });

    it("resolves a full id or a unique prefix, and refuses an ambiguous or unknown one", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const a = await load(writePiSession(dir, "conf-prefix-aaaa", ["one"]));
        const b = await load(writePiSession(dir, "conf-prefix-bbbb", ["two"]));
        expect(await store.resolveSessionId(a)).toBe(a);
        expect(await store.resolveSessionId("conf-prefix-a")).toBe(a);
        expect(await store.resolveSessionId("conf-prefix-b")).toBe(b);
        let ambiguous: unknown;
        try {
          await store.resolveSessionId("conf-prefix-");
        } catch (error) {
          ambiguous = error;
        }
        expect(ambiguous).toBeInstanceOf(SessionLookupError);
        expect([...(ambiguous as SessionLookupError).candidates].sort()).toEqual([a, b].sort());
        await expect(async () => store.resolveSessionId("zz-unknown")).rejects.toThrow(SessionLookupError);
      });
    });
    it("reads the path to the leaf or to any entry as a root -> leaf chain; isOnPath agrees", async () => {
      await withStore(factory, async ({ load, store }) => {
        const id = await load(fx.piBranched);
        const ids = fileEntryIds(fx.piBranched);
        expect(await store.getLeaf(id)).toBe(ids.at(-1));
        const path = await store.getPath(id);
        expect(path.at(-1)!.id).toBe(ids.at(-1));
        expect(path[0]!.parentId).toBeNull();
        path.slice(1).forEach((e, i) => expect(e.parentId).toBe(path[i]!.id));
        const onPath = new Set(path.map((e) => e.id));
        const abandoned = ids.filter((e) => !onPath.has(e));
        expect(abandoned.length).toBeGreaterThan(0);
        expect(onPath.has(FORK)).toBe(true);
        const abandonedTip = abandoned.at(-1)!;
        const other = await store.getPath(id, abandonedTip);
        expect(other.at(-1)!.id).toBe(abandonedTip);
        expect(other.map((e) => e.id)).toContain(FORK);
        expect(await store.isOnPath(id, FORK)).toBe(true);
        expect(await store.isOnPath(id, abandonedTip)).toBe(false);
        expect(await store.isOnPath(id, abandonedTip, abandonedTip)).toBe(true);
        expect(await store.areOnPath(id, [FORK, abandonedTip, path.at(-1)!.id])).toEqual([true, false, true]);
        expect((await store.getPathNodes(id)).map((n) => n.id)).toEqual(path.map((e) => e.id));
      });
    });

    it("finds entries by id, in the order asked", async () => {
      await withStore(factory, async ({ load, store }) => {
        const id = await load(fx.piBranched);
        const entries = await store.loadEntries(id);
        const [first, second] = [entries[0]!, entries[5]!];
        expect(await store.getEntry(id, second.id)).toEqual(second);
        expect(await store.getEntry(id, "no-such-entry")).toBeUndefined();
        expect(await store.hasEntry(id, first.id)).toBe(true);
        expect(await store.hasEntry(id, "no-such-entry")).toBe(false);
        expect(await store.getEntries(id, [second.id, "no-such-entry", first.id])).toEqual([second, undefined, first]);
        expect(await store.getEntryInfo(id, second.id)).toMatchObject({ entry: second, seq: 5 });
      });
    });

    it("tells what the model sees from a leaf, as core builds it from the entries", async () => {
      await withStore(factory, async ({ load, store }) => {
        const id = await load(fx.piBranched);
        const entries: SessionEntry[] = await store.loadEntries(id);
        const leaf = await store.getLeaf(id);
        expect(await store.getContextSummary(id)).toEqual(summarizeContext(buildSessionContext(entries, leaf)));
        const offPath: SessionEntry[] = [];
        for (const e of entries) if (!(await store.isOnPath(id, e.id))) offPath.push(e);
        const abandonedTip = offPath.at(-1)!.id;
        expect(await store.getContextSummary(id, abandonedTip)).toEqual(summarizeContext(buildSessionContext(entries, abandonedTip)));
        expect(summarizeContext(buildSessionContext(await store.getContextEntries(id), leaf))).toEqual(await store.getContextSummary(id));
      });
    });

    it("renders a pi session as JSONL: its header line, then every entry in file order", async () => {
      await withStore(factory, async ({ load, store }) => {
        const id = await load(fx.piBranched);
        const text = await store.renderJsonl(id);
        expect(text.endsWith("\n")).toBe(true);
        const lines = text.slice(0, -1).split("\n").map((line) => JSON.parse(line) as unknown);
        expect(lines).toEqual([await store.getHeader(id), ...(await store.loadEntries(id))]);
        await expect(async () => store.renderJsonl("no-such-session")).rejects.toThrow(SessionLookupError);
      });
    });

    it("gives the skeleton one node per entry in file order, its packed form equal to core's packing, previews in the order asked", async () => {
      await withStore(factory, async ({ load, store }) => {
        const id = await load(fx.piBranched);
        const entries = await store.loadEntries(id);
        const skeleton = await store.getSkeleton(id);
        expect(skeleton.nodes.map((n) => n.id)).toEqual(entries.map((e) => e.id));
        expect(skeleton.nodes.map((n) => n.parentId)).toEqual(entries.map((e) => e.parentId));
        expect(skeleton.nodes.map((n) => n.type)).toEqual(entries.map((e) => e.type));
        expect(unpackSkeleton(await store.getPackedSkeleton(id))).toEqual(unpackSkeleton(packSkeleton(skeleton, { previews: "heads" })));
        expect(await store.getSkeletonTail(id, entries.length - 3)).toEqual(skeleton.nodes.slice(-3));
        const [a, b] = [skeleton.nodes[3]!, skeleton.nodes[1]!];
        expect(await store.getPreviews(id, [a.id, "no-such-entry", b.id])).toEqual([a.preview, "", b.preview]);
        expect(await store.countSessionShape(id)).toEqual({ compactions: 0, branches: 2 });
      });
    });
  });
}
