/**
 * What the model sees from the current leaf: system prompt, summary message, kept messages, each
 * with a token bar; the total against the context window and the compaction threshold; and the
 * estimated context size along the active path with compaction points.
 */
import { memo, useMemo } from "react";
import type { ContextPreview } from "@bonsai/ipc";
import { useExplorer } from "../store";
import { formatInt, formatTokens } from "../tree/format";
import { downsample } from "../tree/model";
import type { ContextPoint } from "../tree/model";

const CHART_W = 560;
const CHART_H = 140;

export const SizeChart = memo(function SizeChart({ preview }: { preview: ContextPreview }) {
  const points = useMemo<ContextPoint[]>(
    () => downsample(preview.sizeSeries.map((p, pos) => ({ pos, entryId: p.entryId, tokens: p.tokens, compaction: p.compaction })), 400),
    [preview.sizeSeries],
  );
  const reveal = useExplorer((s) => s.reveal);
  if (points.length === 0) return null;
  const n = Math.max(1, preview.sizeSeries.length - 1);
  const top = Math.max(preview.contextWindow, ...points.map((p) => p.tokens)) * 1.05 || 1;
  const x = (pos: number) => (pos / n) * CHART_W;
  const y = (tokens: number) => CHART_H - (tokens / top) * CHART_H;
  const line = points.map((p) => `${x(p.pos).toFixed(1)},${y(p.tokens).toFixed(1)}`).join(" ");
  return (
    <svg className="bz-chart" viewBox={`0 0 ${CHART_W} ${CHART_H}`} preserveAspectRatio="none" role="img" aria-label="Estimated context size along the active path" data-testid="context-chart">
      <line x1={0} x2={CHART_W} y1={y(preview.contextWindow)} y2={y(preview.contextWindow)} className="bz-chart-window" />
      <line x1={0} x2={CHART_W} y1={y(preview.threshold)} y2={y(preview.threshold)} className="bz-chart-threshold" />
      <polyline points={line} className="bz-chart-line" />
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

export function ContextView() {
  const preview = useExplorer((s) => s.context);
  const error = useExplorer((s) => s.contextError);
  const reveal = useExplorer((s) => s.reveal);
  if (error) return <div className="bz-empty">Could not compute the context: {error}</div>;
  if (!preview) return <div className="bz-empty">Loading the context…</div>;
  const max = Math.max(1, preview.systemPrompt?.tokens ?? 0, ...preview.messages.map((m) => m.tokens));
  const pct = preview.contextWindow > 0 ? (preview.tokens / preview.contextWindow) * 100 : 0;
  const thresholdPct = preview.contextWindow > 0 ? (preview.threshold / preview.contextWindow) * 100 : 0;
  return (
    <div className="bz-context" data-testid="context-view">
      <div className="bz-total">
        <div>
          <strong data-testid="context-total">{formatInt(preview.tokens)}</strong> of {formatInt(preview.contextWindow)} tokens ({pct.toFixed(1)}%), estimated; compaction threshold {formatInt(preview.threshold)}
          {preview.overThreshold ? <span className="bz-flag bz-flag-warn"> over the threshold</span> : null}
        </div>
        <div className="bz-meter" aria-hidden>
          <div className="bz-meter-fill" style={{ width: `${Math.min(100, pct)}%` }} />
          <div className="bz-meter-mark" style={{ left: `${Math.min(100, thresholdPct)}%` }} />
        </div>
      </div>
      <h4>Context size along the path</h4>
      <SizeChart preview={preview} />
      <h4>
        Messages sent (<span data-testid="context-count">{preview.messages.length}</span>)
      </h4>
      <ol className="bz-msgs">
        {preview.systemPrompt ? (
          <li className="bz-msg bz-msg-system" data-testid="context-system">
            <span className="bz-msg-role">system</span>
            <span className="bz-msg-preview">{preview.systemPrompt.text.slice(0, 160)}</span>
            <TokenBar tokens={preview.systemPrompt.tokens} max={max} />
          </li>
        ) : null}
        {preview.messages.map((m, i) => (
          <li
            key={`${m.entryId ?? "synthetic"}-${i}`}
            className={`bz-msg bz-msg-${m.sourceRole}`}
            data-testid="context-message"
            data-source-role={m.sourceRole}
            data-entry-id={m.entryId ?? undefined}
            onClick={() => (m.entryId ? reveal(m.entryId, "inspect") : undefined)}
          >
            <span className="bz-msg-role">{m.sourceRole === m.role ? m.role : `${m.role} ← ${m.sourceRole}`}</span>
            <span className="bz-msg-preview">{m.preview}</span>
            <TokenBar tokens={m.tokens} max={max} />
          </li>
        ))}
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
