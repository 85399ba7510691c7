/**
 * Node components of the tree. Defined at module scope and memoized: React Flow re-renders only
 * the nodes whose props changed, and with onlyRenderVisibleElements only those on screen.
 * Each node has three rows: kind and tokens, a two-line preview, and its chips in a row of their own.
 */
import { memo } from "react";
import { Handle, Position } from "@xyflow/react";
import type { NodeProps, NodeTypes } from "@xyflow/react";
import { useBonsai } from "../../state/store";
// issue 14: amnesia score on compaction nodes, and the entries of a picked finding
import { AmnesiaBadge, useAmnesiaHit } from "../amnesia/AmnesiaBadge";
import { compactionBandLabel, compactionBandTitle } from "./context-tokens";
import { formatTokens, nodeTitle, summaryPreview } from "./format";
import type { EntryFlowNode, SegmentFlowNode } from "./layout";

const hidden = { opacity: 0, pointerEvents: "none" } as const;

function Handles() {
  return (
    <>
      <Handle type="target" position={Position.Top} style={hidden} isConnectable={false} />
      <Handle type="source" position={Position.Bottom} style={hidden} isConnectable={false} />
      <Handle id="side-out" type="source" position={Position.Left} style={hidden} isConnectable={false} />
      <Handle id="side-in" type="target" position={Position.Left} style={hidden} isConnectable={false} />
      <Handle id="from-out" type="source" position={Position.Right} style={hidden} isConnectable={false} />
    </>
  );
}

function EntryNodeView({ id, data }: NodeProps<EntryFlowNode>) {
  const selected = useBonsai((s) => s.selectedId === id);
  // a compaction shows what the model sees from it: the figure every panel shows for this node
  const isCompaction = data.kind === "compaction" && data.type === "compaction";
  const band = useBonsai((s) => {
    const i = isCompaction && s.index ? s.index.byId.get(id) : undefined;
    return i === undefined || !s.index ? null : compactionBandLabel(s.index, s.treeTokens, i);
  });
  const bandTitle = useBonsai((s) => {
    const i = isCompaction && s.index ? s.index.byId.get(id) : undefined;
    return i === undefined || !s.index ? undefined : compactionBandTitle(s.index, s.treeTokens, i, id);
  });
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
  const tokens =
    data.kind === "meta"
      ? ""
      : isCompaction
        ? (band ?? "… tok")
        : `${formatTokens(data.tokens)} tok`;
  const preview = data.kind === "compaction" || data.kind === "branchSummary" ? summaryPreview(data.preview) : data.preview;
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
        <span className="bz-node-tokens" data-testid={isCompaction ? "compaction-tokens-before" : undefined} title={bandTitle}>
          {tokens}
        </span>
      </div>
      <div className="bz-node-preview">{preview || "\u00a0"}</div>
      <div className="bz-node-chips">
        {data.isLeaf ? <span className="bz-flag bz-flag-leaf">leaf</span> : null}
        {data.children > 1 ? <span className="bz-flag bz-flag-branch">{data.children} branches</span> : null}
        {data.label !== undefined ? (
          <span className="bz-label" data-testid="node-label">
            {data.label}
          </span>
        ) : null}
        {data.keptTarget ? <span className="bz-flag bz-flag-kept">first kept</span> : null}
        {data.region === "summarized" ? <span className="bz-flag bz-flag-notsent">not sent</span> : null}
        {data.pruned ? (
          <span className="bz-flag bz-flag-pruned" data-testid="badge-pruned">
            pruned
          </span>
        ) : null}
        {data.thinking ? <span className="bz-flag">thinking</span> : null}
        {data.fromExtension ? <span className="bz-flag">hook</span> : data.offline ? <span className="bz-flag">offline</span> : null}
        {data.kind === "compaction" ? <AmnesiaBadge entryId={data.entryId} /> : null}
        {data.kind === "branchSummary" && data.fromId ? <span className="bz-flag">from {data.fromId}</span> : null}
      </div>
    </div>
  );
}

function SegmentNodeView({ id, data }: NodeProps<SegmentFlowNode>) {
  const selected = useBonsai((s) => s.selectedId === id);
  return (
    <div
      className={`bz-node bz-segment bz-region-${data.region} ${data.onPath ? "bz-on-path" : "bz-off-path"} ${selected ? "bz-selected" : ""}`}
      data-testid={`tree-segment-${data.firstId}`}
      data-region={data.region}
      data-onpath={data.onPath ? "true" : "false"}
      data-selected={selected ? "true" : undefined}
      title="A run of entries: click to expand it (the Transcript tab reads it as a conversation)"
    >
      <Handles />
      <div className="bz-node-head">
        <span className="bz-node-title">▸ {data.count} entries</span>
        <span className="bz-node-tokens">{formatTokens(data.tokens)} tok</span>
      </div>
      <div className="bz-node-preview">{data.preview}</div>
      <div className="bz-node-chips">
        <span className="bz-flag bz-flag-counts">
          {data.users} user · {data.assistants} assistant · {data.tools} tool
        </span>
        {data.region === "summarized" ? <span className="bz-flag bz-flag-notsent">not sent</span> : null}
      </div>
    </div>
  );
}

export const nodeTypes: NodeTypes = {
  entry: memo(EntryNodeView),
  segment: memo(SegmentNodeView),
};
