/**
 * `bonsai amnesia` on the real sessions of ../shared/fixtures/real: what Codex carries forward into
 * its compacted history (replacement_history) is what the model kept, never a "restated" finding;
 * a copy of a message is never reported as restating the message it copies.
 */
import { describe, expect, it } from "vitest";
import { HAVE_REAL_SESSIONS as HAVE_REAL, REAL_SESSIONS as REAL_FILES, realSession as realPath } from "./real-sessions";
import { json } from "./run-cli";

interface Finding {
  kind: string;
  entryIds: string[];
  detail: string;
}
interface Report {
  compactions: { compactionId: string; score: number; findings: Finding[] }[];
}

describe.skipIf(!HAVE_REAL)("amnesia on the real Codex sessions", () => {
  it.each(REAL_FILES.codex.map((name) => [name]))("%s: no carried-forward copy is reported as restated", async (name) => {
    const report = await json<Report>("amnesia", realPath("codex", name));
    for (const c of report.compactions) {
      for (const f of c.findings) {
        // the reader ids the replacement history's messages "<compaction id>:r<i>"
        expect(f.entryIds.some((id) => id.startsWith(`${c.compactionId}:r`)), f.detail).toBe(false);
        expect(f.kind).not.toBe("restatedInstruction");
      }
    }
  });

  it("the Codex session with two compactions scores no restated instruction on either", async () => {
    const name = REAL_FILES.codex.find((f) => f.startsWith("EntityProcess__agentv__00_34f597b72d_1")) as string;
    const report = await json<Report>("amnesia", realPath("codex", name));
    expect(report.compactions).toHaveLength(2);
    // before: 20 each, from 84-226 copies scored as restatements
    for (const c of report.compactions) expect(c.score).toBeLessThanOrEqual(5);
  });
});
