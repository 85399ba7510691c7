/**
 * Pruning of old tool outputs: what the policy would replace and the tokens saved, apply, and
 * restore pruned outputs (Bonsai keeps the originals).
 */
import { useCallback, useEffect, useMemo } from "react";
import { api } from "../../lib/api";
import { errorMessage, useExplorer } from "../store";
import { formatInt } from "../tree/format";
import { ReadOnlyAction, useReadOnly } from "../foreign/ReadOnly";

export function PrunePanel() {
  const sessionId = useExplorer((s) => s.sessionId);
  const leafId = useExplorer((s) => s.skeleton?.leafId ?? null);
  const skeleton = useExplorer((s) => s.skeleton);
  const plan = useExplorer((s) => s.prunePlan);
  const setState = useExplorer((s) => s.setState);
  const notify = useExplorer((s) => s.notify);
  const reveal = useExplorer((s) => s.reveal);
  const readOnly = useReadOnly() !== null;

  const pruned = useMemo(() => (skeleton?.nodes ?? []).filter((n) => n.pruned), [skeleton]);

  const refresh = useCallback(async () => {
    if (!sessionId) return;
    try {
      setState({ prunePlan: await api().planPrune({ sessionId, leafId }) });
    } catch (err) {
      notify("error", `Could not plan pruning: ${errorMessage(err)}`);
    }
  }, [sessionId, leafId, setState, notify]);

  useEffect(() => {
    void refresh();
  }, [refresh, skeleton]);

  const apply = async () => {
    if (!sessionId) return;
    try {
      const r = await api().applyPrune({ sessionId, leafId });
      notify("info", `Pruned ${r.prunedEntryIds.length} tool output(s), ${formatInt(r.tokensSaved)} tokens saved.`);
      await useExplorer.getState().reloadSkeleton();
    } catch (err) {
      notify("error", `Pruning failed: ${errorMessage(err)}`);
    }
  };

  const restore = async (entryIds?: string[]) => {
    if (!sessionId) return;
    try {
      const r = await api().restorePruned(entryIds ? { sessionId, entryIds } : { sessionId });
      notify("info", `Restored ${r.restoredEntryIds.length} tool output(s).`);
      await useExplorer.getState().reloadSkeleton();
    } catch (err) {
      notify("error", `Restore failed: ${errorMessage(err)}`);
    }
  };

  return (
    <div className="bz-panel" data-testid="prune-panel">
      <h3>Prune old tool outputs</h3>
      {readOnly ? <ReadOnlyAction what="Pruning" /> : null}
      <p className="bz-muted">
        The newest 40,000 tokens of tool output are protected, pruning needs at least 20,000 tokens of savings, and <code>read</code> / <code>skill</code> results
        are never pruned. Pruned outputs become “[Output truncated - N tokens]”; Bonsai keeps the originals so they can be restored.
      </p>
      {plan ? (
        plan.items.length > 0 ? (
          <>
            <div data-testid="prune-summary">
              Would replace <strong data-testid="prune-count">{plan.items.length}</strong> tool output(s), saving{" "}
              <strong data-testid="prune-saved">{formatInt(plan.tokensSaved)}</strong> tokens.
            </div>
            <ol className="bz-msgs bz-scroll">
              {plan.items.map((it) => (
                <li key={it.entryId} className="bz-msg" data-testid="prune-item" onClick={() => reveal(it.entryId, "prune")}>
                  <span className="bz-msg-role">{it.toolName}</span>
                  <span className="bz-msg-preview">{it.entryId}</span>
                  <span className="bz-muted">{formatInt(it.tokens)} tok</span>
                </li>
              ))}
            </ol>
            <button type="button" onClick={() => void apply()} disabled={readOnly} data-testid="prune-apply">
              Prune {plan.items.length} output(s)
            </button>
          </>
        ) : (
          <div className="bz-empty" data-testid="prune-nothing">Nothing to prune on this path.</div>
        )
      ) : (
        <div className="bz-empty">Planning…</div>
      )}
      <h4>
        Pruned outputs (<span data-testid="pruned-count">{pruned.length}</span>)
      </h4>
      {pruned.length > 0 ? (
        <>
          <ol className="bz-msgs bz-scroll">
            {pruned.slice(0, 500).map((n) => (
              <li key={n.id} className="bz-msg" data-testid="pruned-item">
                <span className="bz-msg-role">{n.toolName ?? "tool"}</span>
                <button type="button" className="bz-link" onClick={() => reveal(n.id, "inspect")}>
                  {n.id}
                </button>
                <button type="button" onClick={() => void restore([n.id])} disabled={readOnly}>
                  Restore
                </button>
              </li>
            ))}
          </ol>
          <button type="button" onClick={() => void restore()} disabled={readOnly} data-testid="prune-restore-all">
            Restore all
          </button>
        </>
      ) : null}
    </div>
  );
}
