/**
 * Compact by click: the plan for the current leaf (summarized vs kept, split turn, tokens before
 * and after), instructions, Run with progress and Abort, and a dry run whose summary can be read,
 * compared (before/after context) and edited before it is appended.
 */
import { useEffect, useState } from "react";
import type { CompactionOutcome } from "@bonsai/ipc";
import { api, errorMessage, failureSentence, isAborted } from "../../lib/api";
import { newRequestId, useBonsai } from "../../state/store";
import { formatInt } from "../tree/format";
import { HiddenMessagesRow, MoreRowsRow, useDrawnRows, useListedMessages } from "../context/FoldedList";
import { Elapsed } from "./Elapsed";
// issue 14: the "absent from the summary" check of a dry run
import { SummaryCheck } from "../amnesia/SummaryCheck";
import { instructionsWithIdentifiers } from "../amnesia/summary-check";
import { ReadOnlyAction, useHostReadOnly, useReadOnly } from "../foreign/ReadOnly";

export function CompactionPanel() {
  const sessionId = useBonsai((s) => s.openSessionId);
  const leafId = useBonsai((s) => s.skeleton?.leafId ?? null);
  const plan = useBonsai((s) => s.plan);
  const planError = useBonsai((s) => s.planError);
  const job = useBonsai((s) => s.job);
  const dryRun = useBonsai((s) => s.dryRun);
  const context = useBonsai((s) => s.context);
  const setState = useBonsai((s) => s.setWork);
  const notifyAll = useBonsai((s) => s.notify);
  const notify = (level: "info" | "warning" | "error", message: string) => notifyAll(level, message, sessionId);
  const [instructions, setInstructions] = useState("");
  const [summary, setSummary] = useState("");
  const [shortSummary, setShortSummary] = useState("");
  // the dry run's list of the context's messages: folded when long, all of them when asked
  const diffList = useListedMessages(context);
  const diffRows = useDrawnRows(diffList.listed, `${context?.sessionId ?? ""}:${context?.leafId ?? ""}:${diffList.hidden}`);
  // a Claude Code / Codex session: the plan is shown (what a pi-style compaction would do), not run
  const readOnly = useReadOnly() !== null;
  // on a team archive: the why, as the disabled buttons' tooltip
  const why = useHostReadOnly() ?? undefined;

  useEffect(() => {
    if (!sessionId) return;
    let live = true;
    setState({ planError: null });
    api()
      .planCompaction({ sessionId, leafId })
      .then((p) => live && setState({ plan: p }))
      .catch((err: unknown) => live && setState({ plan: null, planError: errorMessage(err) }));
    return () => {
      live = false;
    };
  }, [sessionId, leafId, setState]);

  useEffect(() => {
    setSummary(dryRun?.result.summary ?? "");
    setShortSummary(dryRun?.result.shortSummary ?? "");
  }, [dryRun]);

  const running = job.kind === "running" && (job.what === "compaction" || job.what === "dryRun");

  const run = async (dry: boolean, instructionsText = instructions) => {
    if (!sessionId) return;
    const requestId = newRequestId(dry ? "dry" : "compact");
    setState({ job: { kind: "running", what: dry ? "dryRun" : "compaction", requestId, startedAt: Date.now() }, dryRun: null });
    try {
      const outcome: CompactionOutcome = await api().compact({
        sessionId,
        leafId,
        instructions: instructionsText.trim() === "" ? undefined : instructionsText,
        dryRun: dry,
        requestId,
      });
      setState({ job: { kind: "idle" } });
      if (dry) {
        setState({ dryRun: outcome });
      } else {
        notify("info", `Compacted: the model sees ${formatInt(outcome.contextTokensBefore)} → ${formatInt(outcome.contextTokensAfter)} tokens.`);
        await useBonsai.getState().reloadSkeleton();
        void useBonsai.getState().refreshUndo();
        if (outcome.entryId) useBonsai.getState().reveal(outcome.entryId, "context");
      }
    } catch (err) {
      const aborted = isAborted(err);
      const message = failureSentence(err, dry ? "no dry run was made" : "the session was not compacted");
      setState({ job: aborted ? { kind: "idle" } : { kind: "failed", message } });
      // the panel shows the failure where it happened; the stack keeps it after the panel closes
      notify(aborted ? "info" : "error", aborted ? "Compaction cancelled." : message);
    }
  };

  const abort = async () => {
    if (!sessionId) return;
    try {
      await api().abort({ sessionId, what: "compaction" });
    } catch (err) {
      notify("error", failureSentence(err, "the compaction goes on"));
    }
  };

  const commit = async () => {
    if (!sessionId || !dryRun) return;
    try {
      const result = { ...dryRun.result, summary };
      if (shortSummary.trim() !== "") result.shortSummary = shortSummary.trim();
      else delete result.shortSummary;
      const { entryId } = await api().commitCompaction({ sessionId, leafId, result });
      setState({ dryRun: null });
      notify("info", "Compaction appended.");
      await useBonsai.getState().reloadSkeleton();
      void useBonsai.getState().refreshUndo();
      useBonsai.getState().reveal(entryId, "context");
    } catch (err) {
      notify("error", failureSentence(err, "the compaction was not appended"));
    }
  };

  if (!sessionId) return null;
  const removed = new Set([...(plan?.summarizedEntryIds ?? []), ...(plan?.turnPrefixEntryIds ?? [])]);
  return (
    <div className="bz-panel" data-testid="compaction-panel">
      <h3>Compact at the leaf</h3>
      {readOnly ? <ReadOnlyAction what="Compacting" /> : null}
      {planError ? <div className="bz-error">{planError}</div> : null}
      {plan ? (
        plan.possible ? (
          <dl className="bz-fields" data-testid="compaction-plan">
            <dt>summarized</dt>
            <dd data-testid="plan-summarized">{plan.summarizedEntryIds.length} entries{plan.hasPreviousSummary ? " + the previous summary" : ""}</dd>
            <dt>kept verbatim</dt>
            <dd data-testid="plan-kept">
              {plan.keptEntryIds.length} entries from{" "}
              {plan.firstKeptEntryId ? (
                <button type="button" className="bz-link" onClick={() => useBonsai.getState().reveal(plan.firstKeptEntryId as string, "compact")}>
                  {plan.firstKeptEntryId}
                </button>
              ) : (
                "—"
              )}
            </dd>
            <dt>split turn</dt>
            <dd data-testid="plan-split">{plan.isSplitTurn ? `yes (${plan.turnPrefixEntryIds.length} entries of the turn summarized separately)` : "no"}</dd>
            <dt>the model sees now</dt>
            <dd>
              <span data-testid="plan-context">{formatInt(plan.contextTokens)}</span> tokens (as in every panel)
            </dd>
            <dt>kept part after</dt>
            <dd data-testid="plan-after">{formatInt(plan.estimatedTokensAfter)} tokens (est.) + the summary</dd>
            <dt>recorded as tokensBefore</dt>
            <dd>
              <span data-testid="plan-before">{formatInt(plan.tokensBefore)}</span> (the last usage a model reported on the path)
            </dd>
            <dt>files</dt>
            <dd>
              {plan.readFiles.length} read, {plan.modifiedFiles.length} modified
            </dd>
          </dl>
        ) : (
          <div className="bz-empty" data-testid="plan-impossible">Nothing to compact: {plan.reason}</div>
        )
      ) : !planError ? (
        <div className="bz-empty">Planning…</div>
      ) : null}
      <label className="bz-label-block">
        Instructions for the summary (optional)
        <textarea value={instructions} onChange={(e) => setInstructions(e.target.value)} rows={3} maxLength={20000} data-testid="compaction-instructions" placeholder="e.g. Focus on the database migration decisions" />
      </label>
      <div className="bz-row">
        <button type="button" disabled={running || !plan?.possible || readOnly} title={why} onClick={() => void run(false)} data-testid="compaction-run">
          Run compaction
        </button>
        <button type="button" disabled={running || !plan?.possible || readOnly} title={why} onClick={() => void run(true)} data-testid="compaction-dry-run">
          Dry run
        </button>
        {running ? (
          <>
            <span className="bz-progress" data-testid="compaction-progress">
              <span className="bz-spinner" /> Summarizing… <Elapsed since={job.startedAt} />
            </span>
            <button type="button" onClick={() => void abort()} data-testid="compaction-abort">
              Abort
            </button>
          </>
        ) : null}
      </div>
      {job.kind === "failed" ? <div className="bz-error" data-testid="compaction-error">{job.message}</div> : null}
      {dryRun ? (
        <div className="bz-dryrun" data-testid="dry-run-result">
          <h4>Generated summary (edit before appending)</h4>
          <textarea value={summary} onChange={(e) => setSummary(e.target.value)} rows={12} data-testid="dry-run-summary" />
          <SummaryCheck
            summary={summary}
            dryRunKey={dryRun}
            disabled={running}
            onAddAndRetry={(identifiers) => {
              const next = instructionsWithIdentifiers(instructions, identifiers);
              setInstructions(next);
              void run(true, next);
            }}
          />
          <label className="bz-label-block">
            Short summary
            <input value={shortSummary} onChange={(e) => setShortSummary(e.target.value)} data-testid="dry-run-short-summary" />
          </label>
          <div className="bz-diff" data-testid="dry-run-diff">
            <div>
              The model sees <strong data-testid="dry-run-before">{formatInt(dryRun.contextTokensBefore)}</strong> → <strong data-testid="dry-run-after">{formatInt(dryRun.contextTokensAfter)}</strong> tokens
            </div>
            <ol className="bz-msgs">
              <li className="bz-msg bz-diff-add">
                <span className="bz-msg-role">+ summary</span>
                <span className="bz-msg-preview">{summary.slice(0, 200)}</span>
              </li>
              {diffRows.drawn.map(({ item: m, index: i }) => [
                diffList.hidden > 0 && i === diffList.resumesAt ? <HiddenMessagesRow key="folded" hidden={diffList.hidden} total={diffList.total} listAll={diffList.listAll} listing={diffList.listing} testIds="dry-run" /> : null,
                <li key={`${m.entryId ?? "s"}-${i}`} className={`bz-msg ${m.entryId && removed.has(m.entryId) ? "bz-diff-del" : m.sourceRole === "compactionSummary" ? "bz-diff-del" : ""}`}>
                  <span className="bz-msg-role">{m.entryId && removed.has(m.entryId) ? "−" : m.sourceRole === "compactionSummary" ? "− old summary" : " "} {m.role}</span>
                  <span className="bz-msg-preview">{m.preview}</span>
                </li>,
              ])}
              {diffRows.left > 0 ? <MoreRowsRow left={diffRows.left} more={diffRows.more} testIds="dry-run" /> : null}
            </ol>
          </div>
          <div className="bz-row">
            <button type="button" disabled={summary.trim() === ""} onClick={() => void commit()} data-testid="dry-run-commit">
              Append this compaction
            </button>
            <button type="button" onClick={() => setState({ dryRun: null })} data-testid="dry-run-discard">
              Discard
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
