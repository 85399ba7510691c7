/**
 * The real Entire transcripts of the shared fixtures (fixtures/real/, README: most came from
 * checkpoint branches) put back at their original paths on a checkpoint branch built with git, with
 * metadata in Entire's form: `importGitRepository` gives the same sessions, entries, trees and
 * context figures as importing the same files directly.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EntireRepo, type CheckpointSession } from "@bonsai/testkit/entire-repo";
import { importGitRepository } from "../src/index";
import { FIXTURES, newStore, tempDir } from "./support";

const REAL = path.join(FIXTURES, "real");
/** `<owner>__<repo>__<shard>_<rest>_<n>_full.jsonl`: a transcript that was at `<shard>/<rest>/<n>/full.jsonl` */
const ENTIRE_NAME = /__([0-9a-f]{2})_([0-9a-f]{10})_(\d+)_full\.jsonl$/;
const AGENTS: Record<string, string> = { pi: "Pi", "claude-code": "Claude Code", codex: "Codex" };

function entireFixtures(): { file: string; checkpointId: string; index: number; agent: string }[] {
  if (!fs.existsSync(REAL)) return [];
  const out: { file: string; checkpointId: string; index: number; agent: string }[] = [];
  for (const agentDir of Object.keys(AGENTS)) {
    for (const name of fs.readdirSync(path.join(REAL, agentDir)).sort()) {
      const m = ENTIRE_NAME.exec(name);
      if (m) out.push({ file: path.join(REAL, agentDir, name), checkpointId: m[1]! + m[2]!, index: Number(m[3]), agent: AGENTS[agentDir]! });
    }
  }
  return out;
}

const FILES = entireFixtures();

describe.skipIf(FILES.length === 0)("bonsai import --git on real checkpoint transcripts", () => {
  it("gives the same sessions, entries, trees and context figures as importing the files directly", async () => {
    expect(FILES.length).toBeGreaterThanOrEqual(12);
    const direct = newStore(tempDir());
    const sessionOf = new Map<string, string>();
    for (const f of FILES) {
      const r = await direct.importFile(f.file);
      expect(r.status).toBe("imported");
      sessionOf.set(f.file, direct.getSession(r.sessionId!)!.headerId);
    }
    const repo = EntireRepo.create(tempDir());
    const byCheckpoint = new Map<string, { index: number; s: CheckpointSession }[]>();
    for (const f of FILES) {
      const list = byCheckpoint.get(f.checkpointId) ?? [];
      list.push({ index: f.index, s: { sessionId: sessionOf.get(f.file)!, agent: f.agent, createdAt: "2026-05-01T00:00:00Z", transcript: fs.readFileSync(f.file) } });
      byCheckpoint.set(f.checkpointId, list);
    }
    for (const [id, list] of byCheckpoint) repo.addCheckpointAt(id, list);
    const store = newStore(tempDir());
    const result = await importGitRepository(store, repo.dir);
    expect(result.skipped).toEqual([]);
    expect(result.checkpointsRead).toBe(byCheckpoint.size);
    expect(result.sessions.map((s) => s.report.status)).toEqual(FILES.map(() => "imported"));
    for (const s of result.sessions) expect(s.transcript).toBe(`${s.checkpointId.slice(0, 2)}/${s.checkpointId.slice(2)}/${FILES.find((f) => sessionOf.get(f.file) === s.agentSessionId)!.index}/full.jsonl`);

    const viaGit = new Map(store.listSessions().map((s) => [s.headerId, s]));
    const viaFile = new Map(direct.listSessions().map((s) => [s.headerId, s]));
    expect([...viaGit.keys()].sort()).toEqual([...viaFile.keys()].sort());
    for (const [headerId, d] of viaFile) {
      const g = viaGit.get(headerId)!;
      expect([g.agent, g.entryCount, g.messageCount, g.leafId, g.compactionCount, g.title, g.cwd]).toEqual([d.agent, d.entryCount, d.messageCount, d.leafId, d.compactionCount, d.title, d.cwd]);
      expect(store.loadEntries(g.id)).toEqual(direct.loadEntries(d.id));
      expect(store.getSkeleton(g.id).nodes).toEqual(direct.getSkeleton(d.id).nodes);
      expect(store.getContextFigures(g.id, g.leafId)).toEqual(direct.getContextFigures(d.id, d.leafId));
      expect(store.getContextSummary(g.id, g.leafId)).toEqual(direct.getContextSummary(d.id, d.leafId));
    }
  });
});
