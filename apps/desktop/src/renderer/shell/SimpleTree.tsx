/**
 * The shell's own tree view: the condensed structure of a session in React Flow, top to bottom,
 * with the active path highlighted. The explorer (features/) replaces it with the full view.
 */
import { useMemo } from "react";
import { Background, Controls, Handle, MiniMap, Position, ReactFlow, type Edge, type Node, type NodeProps } from "@xyflow/react";
import { stratify, tree } from "d3-hierarchy";
import type { TreeSkeleton } from "@bonsai/core";
import { condense, type CondensedNode } from "./condense";
import { useBonsai } from "../state/store";

const NODE_W = 220;
const NODE_H = 56;

type ShellNodeData = { c: CondensedNode; active: boolean };
type ShellFlowNode = Node<ShellNodeData, "shell">;

function describe(c: CondensedNode): { title: string; detail: string } {
  const n = c.first;
  if (c.kind === "segment") return { title: `${c.entries} entr${c.entries === 1 ? "y" : "ies"}`, detail: `${c.tokens.toLocaleString()} tokens · ${n.preview}` };
  const what = n.type === "message" ? (n.role ?? "message") : n.type.replace(/_/g, " ");
  return { title: n.label ? `${what} · ${n.label}` : what, detail: n.preview };
}

function ShellNode({ data }: NodeProps<ShellFlowNode>) {
  const { title, detail } = describe(data.c);
  const type = data.c.kind === "segment" ? "segment" : data.c.first.type === "message" ? (data.c.first.role ?? "message") : data.c.first.type;
  return (
    <div
      className={`shell-node shell-node--${type}${data.active ? " is-active" : ""}`}
      data-testid="tree-node"
      data-active={data.active ? "true" : "false"}
      data-entries={data.c.entries}
      data-active-entries={data.c.activeEntries}
      title={detail}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div className="shell-node__title">{title}</div>
      <div className="shell-node__detail">{detail}</div>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

const nodeTypes = { shell: ShellNode };

export function toFlow(skeleton: TreeSkeleton): { nodes: ShellFlowNode[]; edges: Edge[]; activePathLength: number; condensed: number } {
  const { nodes: condensed, activePathLength } = condense(skeleton);
  if (condensed.length === 0) return { nodes: [], edges: [], activePathLength, condensed: 0 };
  // one virtual root above all real roots, so several roots lay out side by side
  const VROOT = "\u0000root";
  const rows = [{ id: VROOT, parentId: null as string | null, c: null as CondensedNode | null }, ...condensed.map((c) => ({ id: c.id, parentId: c.parentId ?? VROOT, c }))];
  const root = stratify<(typeof rows)[number]>()
    .id((r) => r.id)
    .parentId((r) => r.parentId)(rows);
  tree<(typeof rows)[number]>().nodeSize([NODE_W + 40, NODE_H + 36])(root);
  const nodes: ShellFlowNode[] = [];
  const edges: Edge[] = [];
  for (const d of root.descendants()) {
    const c = d.data.c;
    if (!c) continue;
    const active = c.activeEntries > 0;
    nodes.push({ id: c.id, type: "shell", position: { x: d.x ?? 0, y: (d.y ?? 0) - (NODE_H + 36) }, data: { c, active }, draggable: false });
    if (c.parentId !== null) {
      edges.push({ id: `${c.parentId}->${c.id}`, source: c.parentId, target: c.id, className: active ? "is-active" : undefined, selectable: false });
    }
  }
  return { nodes, edges, activePathLength, condensed: condensed.length };
}

export function SimpleTree({ skeleton }: { skeleton: TreeSkeleton }) {
  const flow = useMemo(() => {
    try {
      return { ok: true as const, ...toFlow(skeleton) };
    } catch (err) {
      return { ok: false as const, message: err instanceof Error ? err.message : String(err) };
    }
  }, [skeleton]);
  const selectEntry = useBonsai((s) => s.select);
  if (!flow.ok) return <div className="empty">This session's tree cannot be drawn: {flow.message}</div>;
  return (
    <div className="simple-tree">
      <div className="simple-tree__status" data-testid="tree-status" data-active-path={flow.activePathLength} data-entry-count={skeleton.nodes.length}>
        {skeleton.nodes.length.toLocaleString()} entries · <span data-testid="active-path-count">{flow.activePathLength.toLocaleString()}</span> on the
        active path · drawn as {flow.condensed.toLocaleString()} nodes
      </div>
      <div className="simple-tree__canvas">
        <ReactFlow
          nodes={flow.nodes}
          edges={flow.edges}
          nodeTypes={nodeTypes}
          fitView
          minZoom={0.05}
          nodesConnectable={false}
          nodesDraggable={false}
          onlyRenderVisibleElements={flow.nodes.length > 400}
          onNodeClick={(_e, n) => selectEntry(n.id)}
          proOptions={{ hideAttribution: true }}
        >
          <Background />
          <MiniMap pannable zoomable />
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
    </div>
  );
}
