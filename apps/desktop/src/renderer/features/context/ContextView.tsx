/**
 * What the model sees from the selected node (the leaf when nothing is selected; "Back to the
 * leaf" returns there): the estimate against the window and the threshold, the last usage a model
 * reported on that path (labelled, with its age relative to the latest compaction), the estimate
 * along the path, and every message with its tokens. All figures come from core's contextOf, as in
 * every other panel.
 */
import { memo, useMemo } from "react";
import type { ContextPreview, ReportedUsageDto } from "@bonsai/ipc";
import { useBonsai } from "../../state/store";
import { contextTarget } from "../../state/backend-events";
import { formatInt, formatTokens } from "../tree/format";
import { downsample } from "../tree/model";
import { largest } from "./fold";
import { HiddenMessagesRow, MoreRowsRow, useDrawnRows, useListedMessages } from "./FoldedList";
import type { ContextPoint } from "../tree/model";

const CHART_W = 560;
const CHART_H = 140;

export const SizeChart = memo(function SizeChart({ preview }: { preview: ContextPreview }) {
  const points = useMemo<ContextPoint[]>(
    () => downsample(preview.sizeSeries.map((p) => ({ pos: p.pos, entryId: p.entryId, tokens: p.tokens, compaction: p.compaction })), 400),
    [preview.sizeSeries],
  );
  const reveal = useBonsai((s) => s.reveal);
  if (points.length === 0) return null;
  const n = Math.max(1, preview.pathLength - 1);
  const top = Math.max(preview.contextWindow, ...points.map((p) => p.tokens)) * 1.05 || 1;
  const x = (pos: number) => (pos / n) * CHART_W;
  const y = (tokens: number) => CHART_H - (tokens / top) * CHART_H;
  const line = points.map((p) => `${x(p.pos).toFixed(1)},${y(p.tokens).toFixed(1)}`).join(" ");
  const last = preview.sizeSeries.at(-1);
  return (
    <svg
      className="bz-chart"
      viewBox={`0 0 ${CHART_W} ${CHART_H}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={`Estimated context along the path; ${formatInt(last?.tokens ?? 0)} tokens at its end`}
      data-testid="context-chart"
      data-last-tokens={last?.tokens ?? 0}
    >
      <line x1={0} x2={CHART_W} y1={y(preview.contextWindow)} y2={y(preview.contextWindow)} className="bz-chart-window" />
      <line x1={0} x2={CHART_W} y1={y(preview.threshold)} y2={y(preview.threshold)} className="bz-chart-threshold" />
      <polyline points={line} className="bz-chart-line" />
      {last ? <circle cx={x(n)} cy={y(last.tokens)} r={3.5} className="bz-chart-end" /> : null}
      {points
        .filter((p) => p.compaction)
        .map((p) => (
          <circle key={p.entryId} cx={x(p.pos)} cy={y(p.tokens)} r={4} className="bz-chart-compaction" data-testid="chart-compaction" onClick={() => reveal(p.entryId, "inspect")}>
            <title>compaction {p.entryId}</title>
          </circle>
        ))}
    </svg>
  );
});

/** "the last reply's usage: 65,735 tokens, reported after the latest compaction" */
function UsageLine({ usage, agentTokens, threshold }: { usage: ReportedUsageDto | null; agentTokens: number; threshold: number }) {
  const reveal = useBonsai((s) => s.reveal);
  if (!usage) return <div className="bz-muted" data-testid="context-usage">No reply on this path reports a usage; the agent would count the estimate.</div>;
  const age =
    usage.age === "before-compaction"
      ? "before the latest compaction, so it measures the context that compaction replaced and the agent ignores it"
      : usage.age === "after-compaction"
        ? "after the latest compaction"
        : "no compaction on this path";
  return (
    <div className="bz-usage" data-testid="context-usage" data-age={usage.age}>
      Last usage a model reported on this path: <strong>{formatInt(usage.tokens)}</strong> tokens, by{" "}
      <button type="button" className="bz-link" onClick={() => reveal(usage.entryId, "inspect")}>
        {usage.entryId}
      </button>{" "}
      ({age}).
      {usage.age !== "before-compaction" ? (
        <>
          {" "}
          The agent counts {formatInt(usage.tokens)} + {formatInt(usage.trailingTokens)} for what came after ={" "}
          <strong data-testid="context-agent-tokens">{formatInt(agentTokens)}</strong> against its threshold of {formatInt(threshold)}.
        </>
      ) : null}
    </div>
  );
}

/** "(the window of claude-opus-4-6 on 1M)": where the window came from */
function windowSourceText(p: { contextWindowSource: string; usage: ReportedUsageDto | null }): string {
  const model = p.usage?.model || "the session's model";
  switch (p.contextWindowSource) {
    case "override":
      return `(the window set for ${model} in Preferences)`;
    case "extended":
      return `(${model} on its extended window: the session went past the standard one)`;
    case "known-model":
      return `(the window of ${model})`;
    case "recorded":
      return `(the largest figure this session records for ${model}: its window is at least that)`;
    default:
      return "(the window in Preferences: the model is not known)";
  }
}

export function ContextView() {
  const preview = useBonsai((s) => s.context);
  const error = useBonsai((s) => s.contextError);
  const wanted = useBonsai((s) => contextTarget(s));
  const leafId = useBonsai((s) => s.skeleton?.leafId ?? null);
  const reveal = useBonsai((s) => s.reveal);
  const select = useBonsai((s) => s.select);
  const { listed, hidden, resumesAt, total, listAll, listing } = useListedMessages(preview);
  const rows = useDrawnRows(listed, `${preview?.sessionId ?? ""}:${preview?.leafId ?? ""}:${hidden}`);
  if (error) return <div className="bz-empty">Could not compute the context: {error}</div>;
  if (!preview || preview.leafId !== wanted) return <div className="bz-empty" data-testid="context-loading">Reading what the model sees from {wanted ?? "the start"}…</div>;
  const max = Math.max(preview.systemPrompt?.tokens ?? 0, preview.unlisted?.largestTokens ?? 0, largest(preview.messages.map((m) => m.tokens)));
  // the bar, the percentage and "over the threshold" all judge the one figure (the reported usage plus what came after, else the estimate)
  const pct = preview.contextWindow > 0 ? (preview.agentTokens / preview.contextWindow) * 100 : 0;
  const thresholdPct = preview.contextWindow > 0 ? (preview.threshold / preview.contextWindow) * 100 : 0;
  const atLeaf = preview.leafId === leafId;
  return (
    <div className="bz-context" data-testid="context-view" data-leaf-id={preview.leafId ?? ""}>
      <div className="bz-context-from" data-testid="context-from">
        {atLeaf ? (
          <span>
            From the leaf <code>{preview.leafId}</code> (select any node to see what the model would get from it)
          </span>
        ) : (
          <>
            <span>
              From <code>{preview.leafId}</code>, the selected node
            </span>
            <button type="button" onClick={() => leafId && select(leafId)} data-testid="context-back-to-leaf">
              Back to the leaf
            </button>
          </>
        )}
      </div>
      <div className="bz-total">
        <div>
          <strong data-testid="context-figure" data-basis={preview.basis}>
            {formatInt(preview.agentTokens)}
          </strong>{" "}
          of {formatInt(preview.contextWindow)} tokens ({pct.toFixed(1)}%){" "}
          <span data-testid="context-window-source" data-source={preview.contextWindowSource}>
            {windowSourceText(preview)}
          </span>
          , {preview.basis === "reported" ? "as the model last reported it plus the estimate of what came after" : "estimated"}; compaction threshold {formatInt(preview.threshold)}
          {preview.overThreshold ? <span className="bz-flag bz-flag-warn"> over the threshold</span> : null}
        </div>
        <div className="bz-muted">
          Estimate of the messages in the file (chars ÷ 4, {formatInt(total)} messages): <strong data-testid="context-total">{formatInt(preview.tokens)}</strong>
          {preview.basis === "reported" && preview.agentTokens > preview.tokens ? " — the rest is what the file does not hold (system prompt, tools)" : ""}
        </div>
        <div className="bz-meter" role="meter" aria-label="Context against the window" aria-valuemin={0} aria-valuemax={preview.contextWindow} aria-valuenow={preview.agentTokens}>
          <div className="bz-meter-fill" style={{ width: `${Math.min(100, pct)}%` }} />
          <div className="bz-meter-mark" style={{ left: `${Math.min(100, thresholdPct)}%` }} />
        </div>
        <UsageLine usage={preview.usage} agentTokens={preview.agentTokens} threshold={preview.threshold} />
        {preview.systemPrompt ? (
          <div className="bz-muted">The system prompt (about {formatInt(preview.systemPrompt.tokens)} tokens) is sent with every request and is not in the estimate.</div>
        ) : null}
      </div>
      <h4>Context along the path</h4>
      <SizeChart preview={preview} />
      <h4>
        Messages sent (<span data-testid="context-count">{total}</span>)
      </h4>
      <ol className="bz-msgs">
        {preview.systemPrompt ? (
          <li className="bz-msg bz-msg-system" data-testid="context-system">
            <span className="bz-msg-role">system</span>
            <span className="bz-msg-preview">{preview.systemPrompt.text.slice(0, 160)}</span>
            <TokenBar tokens={preview.systemPrompt.tokens} max={max} />
          </li>
        ) : null}
        {rows.drawn.map(({ item: m, index: i }) => [
          hidden > 0 && i === resumesAt ? <HiddenMessagesRow key="folded" hidden={hidden} total={total} listAll={listAll} listing={listing} testIds="context" /> : null,
          <li
            key={`${m.entryId ?? "synthetic"}-${i}`}
            className={`bz-msg bz-msg-${m.sourceRole}${m.excluded ? " bz-msg-excluded" : ""}`}
            data-testid="context-message"
            data-source-role={m.sourceRole}
            data-entry-id={m.entryId ?? undefined}
            onClick={() => (m.entryId ? reveal(m.entryId, "inspect") : undefined)}
          >
            <span className="bz-msg-role">{m.sourceRole === m.role ? m.role : `${m.role} ← ${m.sourceRole}`}</span>
            <span className="bz-msg-preview">
              {m.excluded ? "(not sent: the agent excludes it) " : ""}
              {m.preview}
            </span>
            <TokenBar tokens={m.tokens} max={max} />
          </li>,
        ])}
        {rows.left > 0 ? <MoreRowsRow left={rows.left} more={rows.more} testIds="context" /> : null}
      </ol>
    </div>
  );
}

function TokenBar({ tokens, max }: { tokens: number; max: number }) {
  return (
    <span className="bz-tokbar" title={`${formatInt(tokens)} tokens`}>
      <span className="bz-tokbar-fill" style={{ width: `${Math.max(1, (tokens / max) * 100)}%` }} />
      <span className="bz-tokbar-label">{formatTokens(tokens)}</span>
    </span>
  );
}
