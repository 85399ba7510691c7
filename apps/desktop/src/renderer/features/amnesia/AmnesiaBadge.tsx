/**
 * On a compaction node of the tree: its amnesia score once the scores are in (loaded the first time
 * a compaction node is drawn); a click opens the Amnesia panel on it. And the mark of the entries of
 * the finding the user picked.
 */
import { useEffect } from "react";
import { useBonsai } from "../../state/store";
import "./amnesia.css";

export function AmnesiaBadge({ entryId }: { entryId: string }) {
  const sessionId = useBonsai((s) => s.openSessionId);
  const load = useBonsai((s) => s.loadAmnesiaScores);
  const entry = useBonsai((s) => (s.amnesiaScores.sessionId === sessionId ? s.amnesiaScores.byCompaction?.get(entryId) : undefined));
  useEffect(() => {
    if (sessionId) void load(sessionId);
  }, [sessionId, load]);
  if (!entry) return null;
  const n = entry.findings;
  return (
    <button
      type="button"
      className={`bz-badge bz-amnesia-badge ${entry.score > 0 ? "bz-amnesia-badge-hit" : ""}`}
      title={n === 0 ? "Amnesia report: no sign that the agent lost context after this compaction" : `Amnesia score ${entry.score}: ${n} sign${n === 1 ? "" : "s"} that the agent lost context after this compaction (click for the list)`}
      onClick={(e) => {
        e.stopPropagation();
        useBonsai.getState().select(entryId, "amnesia");
      }}
      data-testid="amnesia-badge"
      data-score={entry.score}
    >
      {entry.score > 0 ? `amnesia ${entry.score}` : "no amnesia"}
    </button>
  );
}

/** Whether an entry belongs to the picked finding (the tree marks it). */
export function useAmnesiaHit(entryId: string): boolean {
  return useBonsai((s) => s.amnesia.highlight.has(entryId));
}
