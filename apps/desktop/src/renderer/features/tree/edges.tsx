/**
 * Edge types of the tree. "link" draws the compaction -> firstKeptEntryId and branch summary ->
 * fromId connections with an HTML label: React Flow's built-in edge label is SVG text that it
 * measures (getBBox) after every mount, which forces a layout of the page while the tree opens.
 */
import { memo } from "react";
import { BaseEdge, EdgeLabelRenderer, getBezierPath } from "@xyflow/react";
import type { Edge, EdgeProps, EdgeTypes } from "@xyflow/react";

export type LinkEdge = Edge<{ text: string }, "link">;

function LinkEdgeView({ id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data }: EdgeProps<LinkEdge>) {
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  return (
    <>
      <BaseEdge id={id} path={path} />
      {data?.text ? (
        <EdgeLabelRenderer>
          <div className="bz-edge-label" data-testid={`edge-label-${id}`} style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}>
            {data.text}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
}

export const edgeTypes: EdgeTypes = {
  link: memo(LinkEdgeView),
};
