/** An agent's session file as the undo tests use it: a generated pi session written to a folder, and what pi resumes from it. */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildSessionContext, parseSessionText, type SessionEntry } from "@bonsai/core";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";

/** a generated pi session with tool rounds (no compaction, no branch), written to `<dir>/s<seed>.jsonl` where write-through goes */
export function generatedSessionFile(dir: string, seed: number): string {
  const file = path.join(dir, `s${seed}.jsonl`);
  fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 240, seed, contentScale: 12, compactionInterval: 0, branchProbability: 0 })));
  return file;
}

/** What pi does on resume: the file's last entry is the leaf. */
export function agentView(file: string): { leaf: string; contextIds: string[]; entries: SessionEntry[] } {
  const { entries } = parseSessionText(fs.readFileSync(file, "utf8"));
  const leaf = entries.at(-1)!.id;
  return { leaf, contextIds: buildSessionContext(entries, leaf).entryIds, entries };
}
