/**
 * Pruning of old tool outputs: what the policy would replace and the tokens saved, apply, and
 * restore pruned outputs (Bonsai keeps the originals).
 */
import { useCallback, useEffect, useMemo } from "react";
import { api, failureSentence } from "../../lib/api";
import { useBonsai } from "../../state/store";
import { formatBytes, formatInt } from "../tree/format";
import { ReadOnlyAction, useHostReadOnly, useReadOnly } from "../foreign/ReadOnly";

export function PrunePanel() {
  const sessionId = useBonsai((s) => s.openSessionId);
  const leafId = useBonsai((s) => s.skeleton?.leafId ?? null);
  const skeleton = useBonsai((s) => s.skeleton);
  const plan = useBonsai((s) => s.prunePlan);
  const setState = useBonsai((s) => s.setWork);
  const notifyAll = useBonsai((s) => s.notify);
  const reveal = useBonsai((s) => s.reveal);
  const readOnly = useReadOnly() !== null;
  // on a team archive: the why, as the disabled buttons' tooltip
  const why = useHostReadOnly() ?? undefined;

  const pruned = useMemo(() => (skeleton?.nodes ?? []).filter((n) => n.pruned), [skeleton]);

  const refresh = useCallback(async () => {
    if (!sessionId) return;
    try {
      setState({ prunePlan: await api().planPrune({ sessionId, leafId }) });
    } catch (err) {
      notifyAll("error", failureSentence(err, "pruning cannot be planned"), sessionId);
    }
  }, [sessionId, leafId, setState, notifyAll]);

  useEffect(() => {
    void refresh();
  }, [refresh, skeleton]);

  const apply = async () => {
    if (!sessionId) return;
    try {
      const r = await api().applyPrune({ sessionId, leafId });
      notifyAll(
        "info",
        `Pruned ${r.prunedEntryIds.length} tool output${r.prunedEntryIds.length === 1 ? "" : "s"}: the model stops seeing about ${formatInt(r.stopsSeeingTokens)} tokens (${formatInt(r.contextTokensBefore)} → ${formatInt(r.contextTokensAfter)}); ${formatBytes(r.bytesHidden)} of stored output hidden (kept by Bonsai).`,
        sessionId,
      );
      await useBonsai.getState().reloadSkeleton();
    } catch (err) {
      notifyAll("error", failureSentence(err, "nothing was pruned"), sessionId);
    } finally {
      void useBonsai.getState().refreshUndo();
    }
  };

  const restore = async (entryIds?: string[]) => {
    if (!sessionId) return;
    try {
      const r = await api().restorePruned(entryIds ? { sessionId, entryIds } : { sessionId });
      notifyAll("info", `Restored ${r.restoredEntryIds.length} tool output${r.restoredEntryIds.length === 1 ? "" : "s"}.`, sessionId);
      await useBonsai.getState().reloadSkeleton();
    } catch (err) {
      notifyAll("error", failureSentence(err, "nothing was restored"), sessionId);
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
              Would replace <strong data-testid="prune-count">{plan.items.length}</strong> tool output{plan.items.length === 1 ? "" : "s"} by a notice: the model
              would stop seeing about <strong data-testid="prune-stops-seeing">{formatInt(plan.stopsSeeingTokens)}</strong> tokens.
            </div>
            {plan.gainsLittle ? (
              <div className="bz-warn" data-testid="prune-little-gain">
                Little gain: the model would see only {formatInt(plan.stopsSeeingTokens)} tokens less; most of these outputs were already summarized away by a compaction.
              </div>
            ) : null}
            <dl className="bz-fields" data-testid="prune-figures">
              <dt>the model sees</dt>
              <dd>
                <strong data-testid="prune-context-before">{formatInt(plan.contextTokensBefore)}</strong> →{" "}
                <strong data-testid="prune-context-after">{formatInt(plan.contextTokensAfter)}</strong> tokens
                {plan.stopsSeeingTokens > 0 && plan.contextTokensAfter === plan.contextTokensBefore ? (
                  <span className="bz-muted"> (the model last reported its usage before this pruning: the figure drops at its next reply)</span>
                ) : null}
              </dd>
              <dt>stored output hidden</dt>
              <dd>
                <strong data-testid="prune-bytes">{formatBytes(plan.bytesHidden)}</strong> ({formatInt(plan.tokensSaved)} tokens of output, wherever it is on the path;{" "}
                <span data-testid="prune-saved">{formatInt(plan.tokensSaved)}</span> is the spec's saving figure)
              </dd>
            </dl>
            <ol className="bz-msgs bz-scroll">
              {plan.items.map((it) => (
                <li key={it.entryId} className="bz-msg" data-testid="prune-item" onClick={() => reveal(it.entryId, "prune")}>
                  <span className="bz-msg-role">{it.toolName}</span>
                  <span className="bz-msg-preview">{it.entryId}</span>
                  <span className="bz-muted">{formatInt(it.tokens)} tok</span>
                </li>
              ))}
            </ol>
            <button type="button" onClick={() => void apply()} disabled={readOnly} title={why} data-testid="prune-apply">
              Prune {plan.items.length} output{plan.items.length === 1 ? "" : "s"}
            </button>
          </>
        ) : (
          <div className="bz-empty" data-testid="prune-nothing">{plan.nothingReason ?? "Nothing to prune on this path."}</div>
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
                <button type="button" onClick={() => void restore([n.id])} disabled={readOnly} title={why}>
                  Restore
                </button>
              </li>
            ))}
          </ol>
          <button type="button" onClick={() => void restore()} disabled={readOnly} title={why} data-testid="prune-restore-all">
            Restore all
          </button>
        </>
      ) : null}
    </div>
  );
}
