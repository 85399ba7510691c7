/**
 * Node components of the tree. Defined at module scope and memoized: React Flow re-renders
 * only the nodes whose props changed, and with onlyRenderVisibleElements only those on screen.
 */
import { memo } from "react";
import { Handle, Position } from "@xyflow/react";
import type { NodeProps, NodeTypes } from "@xyflow/react";
import { useExplorer } from "../store";
// issue 14: amnesia score on compaction nodes, and the entries of a picked finding
import { AmnesiaBadge, useAmnesiaHit } from "../amnesia/AmnesiaBadge";
import { formatTokens, nodeTitle, summaryPreview } from "./format";
import type { EntryFlowNode, SegmentFlowNode } from "./layout";

const hidden = { opacity: 0, pointerEvents: "none" } as const;

function Handles() {
  return (
    <>
      <Handle type="target" position={Position.Top} style={hidden} isConnectable={false} />
      <Handle type="source" position={Position.Bottom} style={hidden} isConnectable={false} />
      <Handle id="kept-out" type="source" position={Position.Right} style={hidden} isConnectable={false} />
      <Handle id="kept-in" type="target" position={Position.Right} style={hidden} isConnectable={false} />
      <Handle id="from-out" type="source" position={Position.Left} style={hidden} isConnectable={false} />
      <Handle id="from-in" type="target" position={Position.Left} style={hidden} isConnectable={false} />
    </>
  );
}

function EntryNodeView({ id, data }: NodeProps<EntryFlowNode>) {
  const selected = useExplorer((s) => s.selectedId === id);
  const amnesiaHit = useAmnesiaHit(data.entryId);
  const cls = [
    amnesiaHit ? "bz-amnesia-hit" : "",
    "bz-node",
    `bz-kind-${data.kind}`,
    `bz-region-${data.region}`,
    data.onPath ? "bz-on-path" : "bz-off-path",
    data.isLeaf ? "bz-leaf" : "",
    selected ? "bz-selected" : "",
    data.children > 1 ? "bz-branch-point" : "",
    data.keptTarget ? "bz-kept-target" : "",
  ].join(" ");
  return (
    <div
      className={cls}
      data-testid={`tree-node-${data.entryId}`}
      data-kind={data.kind}
      data-region={data.region}
      data-onpath={data.onPath ? "true" : "false"}
      data-leaf={data.isLeaf ? "true" : undefined}
      data-selected={selected ? "true" : undefined}
      title={data.region === "summarized" ? "Summarized by the latest compaction: not sent to the model" : undefined}
    >
      <Handles />
      <div className="bz-node-head">
        <span className="bz-node-title">{nodeTitle(data)}</span>
        {data.thinking ? <span className="bz-badge" title="has thinking">thinking</span> : null}
        {data.pruned ? <span className="bz-badge bz-badge-pruned" data-testid="badge-pruned">pruned</span> : null}
        {data.kind === "compaction" ? <AmnesiaBadge entryId={data.entryId} /> : null}
        <span className="bz-node-tokens">{data.kind === "meta" ? "" : `${formatTokens(data.tokens)} tok`}</span>
      </div>
      {data.kind === "compaction" ? (
        <div className="bz-node-body">
          <div className="bz-node-preview">{summaryPreview(data.preview)}</div>
          <div className="bz-node-sub" data-testid="compaction-tokens-before">
            {data.tokensBefore !== undefined ? `${formatTokens(data.tokensBefore)} tokens before` : ""}
            {data.fromExtension ? " · hook" : data.offline ? " · offline" : ""}
          </div>
        </div>
      ) : data.kind === "branchSummary" ? (
        <div className="bz-node-body">
          <div className="bz-node-preview">{summaryPreview(data.preview)}</div>
          <div className="bz-node-sub">from {data.fromId ?? "?"}</div>
        </div>
      ) : (
        <div className="bz-node-body">
          <div className="bz-node-preview">{data.preview || "\u00a0"}</div>
        </div>
      )}
      <div className="bz-node-flags">
        {data.label !== undefined ? <span className="bz-label" data-testid="node-label">{data.label}</span> : null}
        {data.keptTarget ? <span className="bz-flag bz-flag-kept">first kept</span> : null}
        {data.children > 1 ? <span className="bz-flag">{data.children} branches</span> : null}
        {data.isLeaf ? <span className="bz-flag bz-flag-leaf">leaf</span> : null}
        {data.region === "summarized" ? <span className="bz-flag bz-flag-notsent">not sent</span> : null}
      </div>
    </div>
  );
}

function SegmentNodeView({ id, data }: NodeProps<SegmentFlowNode>) {
  const selected = useExplorer((s) => s.selectedId === id);
  return (
    <div
      className={`bz-node bz-segment bz-region-${data.region} ${data.onPath ? "bz-on-path" : "bz-off-path"} ${selected ? "bz-selected" : ""}`}
      data-testid={`tree-segment-${data.firstId}`}
      data-region={data.region}
      data-onpath={data.onPath ? "true" : "false"}
      data-selected={selected ? "true" : undefined}
      title="Click to expand these entries"
    >
      <Handles />
      <div className="bz-node-head">
        <span className="bz-node-title">{data.count} entries</span>
        <span className="bz-node-tokens">{formatTokens(data.tokens)} tok</span>
      </div>
      <div className="bz-node-body">
        <div className="bz-node-preview">{data.preview}</div>
      </div>
      <div className="bz-node-flags">
        <span className="bz-flag">{data.users} user</span>
        <span className="bz-flag">{data.assistants} assistant</span>
        <span className="bz-flag">{data.tools} tool</span>
        {data.region === "summarized" ? <span className="bz-flag bz-flag-notsent">not sent</span> : null}
        <span className="bz-flag bz-flag-expand">expand ▸</span>
      </div>
    </div>
  );
}

export const nodeTypes: NodeTypes = {
  entry: memo(EntryNodeView),
  segment: memo(SegmentNodeView),
};
