/**
 * The session tree in React Flow: nodes and edges come ready-made from the store (toFlow ran in
 * an action); this component only draws them, forwards clicks and serves focus requests.
 */
import { useCallback, useEffect, useRef } from "react";
import { Background, BackgroundVariant, Controls, MiniMap, ReactFlow, ReactFlowProvider, useReactFlow } from "@xyflow/react";
import type { Node, NodeMouseHandler } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useExplorer } from "../store";
import { NODE_H, NODE_W } from "./layout";
import type { FlowNode } from "./layout";
import { nodeTypes } from "./nodes";

const REGION_COLORS: Record<string, string> = {
  off: "#9aa3ad",
  summarized: "#c9b8a6",
  kept: "#4caf7a",
  compaction: "#d08a1e",
  live: "#3b82f6",
};

function minimapColor(node: Node): string {
  const region = (node.data as { region?: string }).region ?? "off";
  return REGION_COLORS[region] ?? "#999";
}

/** keeps the fitted tree clear of the controls (bottom left) and the minimap (bottom right, 200 px) */
const FIT_PADDING = { top: "24px", bottom: "24px", left: "64px", right: "232px" } as const;

function FocusController() {
  const focus = useExplorer((s) => s.focus);
  const flow = useReactFlow();
  useEffect(() => {
    if (!focus) return;
    const { graph } = useExplorer.getState();
    if (!graph) return;
    // wait a frame: a relayout that came with the request must reach React Flow first
    const raf = requestAnimationFrame(() => {
      if (focus.target === "fit") {
        void flow.fitView({ padding: FIT_PADDING, maxZoom: 1, duration: 0 });
        return;
      }
      const v = graph.flowIndex.get(focus.target);
      const node = v === undefined ? undefined : graph.nodes[v];
      if (!node) return;
      void flow.setCenter(node.position.x + NODE_W / 2, node.position.y + NODE_H / 2, { zoom: Math.max(flow.getZoom(), 0.8), duration: 200 });
    });
    return () => cancelAnimationFrame(raf);
  }, [focus, flow]);
  return null;
}

function Canvas({ dark }: { dark: boolean }) {
  const graph = useExplorer((s) => s.graph);
  const select = useExplorer((s) => s.select);
  const toggleSegment = useExplorer((s) => s.toggleSegment);
  const setState = useExplorer((s) => s.setState);

  const onNodeClick = useCallback<NodeMouseHandler<FlowNode>>(
    (_event, node) => {
      if (node.type === "segment") toggleSegment(node.id);
      else select(node.id, "inspect");
    },
    [select, toggleSegment],
  );
  const onNodeDoubleClick = useCallback<NodeMouseHandler<FlowNode>>(
    (_event, node) => {
      if (node.type === "entry") setState({ switchTarget: node.id });
    },
    [setState],
  );

  if (!graph) return null;
  return (
    <ReactFlow<FlowNode>
      nodes={graph.nodes}
      edges={graph.edges}
      nodeTypes={nodeTypes}
      onlyRenderVisibleElements
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      onNodeClick={onNodeClick}
      onNodeDoubleClick={onNodeDoubleClick}
      minZoom={0.02}
      maxZoom={2}
      colorMode={dark ? "dark" : "light"}
      proOptions={{ hideAttribution: true }}
      zoomOnDoubleClick={false}
      deleteKeyCode={null}
      selectionKeyCode={null}
      multiSelectionKeyCode={null}
      disableKeyboardA11y
    >
      <Background variant={BackgroundVariant.Dots} gap={24} size={1} />
      <MiniMap pannable zoomable nodeColor={minimapColor} nodeStrokeWidth={0} data-testid="tree-minimap" />
      <Controls showInteractive={false} />
      <FocusController />
    </ReactFlow>
  );
}

export function TreeCanvas({ dark }: { dark: boolean }) {
  const sessionId = useExplorer((s) => s.sessionId);
  const box = useRef<HTMLDivElement>(null);
  // keyboard users land in the tree when a session opens (arrows, Enter, shortcuts work from here)
  useEffect(() => {
    if (sessionId) box.current?.focus({ preventScroll: true });
  }, [sessionId]);
  return (
    <div className="bz-canvas" data-testid="tree-canvas" ref={box} tabIndex={0} aria-label="Session tree: arrows move, Enter inspects, S switches branch, C compacts">
      <ReactFlowProvider>
        <Canvas dark={dark} />
      </ReactFlowProvider>
    </div>
  );
}
