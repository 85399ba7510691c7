/**
 * Under a dry-run summary in the Compact panel: the names (paths, symbols, URLs, error codes) of
 * the part being summarized that the kept part goes on using and that the summary — as generated or
 * as edited — does not mention (the amnesia report's "missing from the summary" check, core
 * missingFromSummary); a button adds them to the instructions and runs the dry run again.
 */
import { useEffect, useMemo, useState } from "react";
import { missingFromSummary, type IdentifierUse } from "@bonsai/core";
import { api, errorMessage } from "../../lib/api";
import { useBonsai } from "../../state/store";

const SHOWN = 30;

export function SummaryCheck({ summary, dryRunKey, onAddAndRetry, disabled }: { summary: string; dryRunKey: unknown; onAddAndRetry: (identifiers: string[]) => void; disabled: boolean }) {
  const sessionId = useBonsai((s) => s.openSessionId);
  const leafId = useBonsai((s) => s.skeleton?.leafId ?? null);
  const [candidates, setCandidates] = useState<IdentifierUse[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!sessionId) return;
    let live = true;
    setCandidates(null);
    api()
      .getSummaryCheck({ sessionId, leafId })
      .then((r) => live && setCandidates(r.candidates))
      .catch((err: unknown) => live && setError(errorMessage(err)));
    return () => {
      live = false;
    };
  }, [sessionId, leafId, dryRunKey]);
  const missing = useMemo(() => (candidates ? missingFromSummary(summary, candidates) : []), [summary, candidates]);
  if (error) return <div className="bz-summary-check bz-error">Could not check the summary: {error}</div>;
  if (!candidates) return <div className="bz-summary-check bz-muted">Checking the summary…</div>;
  if (missing.length === 0) {
    return (
      <div className="bz-summary-check" data-testid="summary-check" data-missing="0">
        Nothing missing: the summary mentions every name ({candidates.length}) of the summarized part that the kept part uses.
      </div>
    );
  }
  return (
    <div className="bz-summary-check bz-summary-check-missing" data-testid="summary-check" data-missing={missing.length}>
      <strong>Absent from the summary:</strong> {missing.length} name{missing.length === 1 ? "" : "s"} of the summarized part that the kept part still uses.
      <ul>
        {missing.slice(0, SHOWN).map((m) => (
          <li key={m.identifier.value} data-testid="summary-check-missing">
            <code>{m.identifier.value}</code> <span className="bz-muted">{m.identifier.kind}</span>
          </li>
        ))}
        {missing.length > SHOWN ? <li className="bz-muted">… and {missing.length - SHOWN} more</li> : null}
      </ul>
      <button type="button" disabled={disabled} onClick={() => onAddAndRetry(missing.slice(0, SHOWN).map((m) => m.identifier.value))} data-testid="summary-check-retry">
        Add them to the instructions and run the dry run again
      </button>
    </div>
  );
}
