/**
 * One session of the what-if: the context along its active path as the file records it (grey) and
 * as the candidate settings would have kept it (accent), the window and the candidate's threshold,
 * and where each run compacted (dots at the size before the compaction).
 */
import { memo } from "react";
import type { WhatIfResult } from "@bonsai/ipc";
import { formatInt, formatTokens } from "../tree/format";
import { chartGeometry, linePoints, yTicks } from "./chart";

const W = 680;
const H = 150;

type Session = WhatIfResult["sessions"][number];

export const WhatIfChart = memo(function WhatIfChart({ session, threshold, contextWindow }: { session: Session; threshold: number; contextWindow: number }) {
  const { actual, candidate } = session;
  const g = chartGeometry(session.pathLength, Math.max(contextWindow, actual.peakContextTokens, candidate.peakContextTokens), W, H);
  const markers = (run: Session["actual"], cls: string, testId: string) =>
    run.compactions.map((c, i) => (
      <circle key={`${cls}-${i}`} cx={g.x(c.atIndex)} cy={g.y(c.tokensBefore)} r={3.5} className={cls} data-testid={testId}>
        <title>
          compaction after {c.atEntryId}: {formatInt(c.tokensBefore)} tokens, keeps from {c.firstKeptEntryId}
          {c.isSplitTurn ? " (split turn)" : ""}, summarizes {formatInt(c.summarizedTokens)}
        </title>
      </circle>
    ));
  return (
    <figure className="bz-whatif-figure" data-testid="whatif-chart" data-session-id={session.sessionId}>
      <figcaption>
        <span className="bz-whatif-title">{session.title}</span>
        <span className="bz-muted" data-testid="whatif-window" data-context-window={contextWindow}>
          {" "}
          · {formatInt(session.pathLength)} entries on the active path · window {formatInt(contextWindow)}, threshold {formatInt(threshold)}
        </span>
      </figcaption>
      <svg viewBox={`-46 -4 ${W + 50} ${H + 20}`} className="bz-whatif-svg" role="img" aria-label={`Context along the path of ${session.title}: the file and the candidate settings`}>
        {yTicks(g.top).map((t) => (
          <g key={t}>
            <line x1={0} x2={W} y1={g.y(t)} y2={g.y(t)} className="bz-whatif-grid" />
            <text x={-6} y={g.y(t) + 3} className="bz-whatif-axis" textAnchor="end">
              {formatTokens(t)}
            </text>
          </g>
        ))}
        <line x1={0} x2={W} y1={g.y(contextWindow)} y2={g.y(contextWindow)} className="bz-whatif-window" />
        <line x1={0} x2={W} y1={g.y(threshold)} y2={g.y(threshold)} className="bz-whatif-threshold" data-testid="whatif-threshold-line" />
        <polyline points={linePoints(actual, g)} className="bz-whatif-actual" data-testid="whatif-actual-line" />
        <polyline points={linePoints(candidate, g)} className="bz-whatif-candidate" data-testid="whatif-candidate-line" />
        {markers(actual, "bz-whatif-mark-actual", "whatif-actual-compaction")}
        {markers(candidate, "bz-whatif-mark-candidate", "whatif-candidate-compaction")}
        <text x={0} y={H + 14} className="bz-whatif-axis">
          first entry
        </text>
        <text x={W} y={H + 14} className="bz-whatif-axis" textAnchor="end">
          leaf
        </text>
      </svg>
    </figure>
  );
});
