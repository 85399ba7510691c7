/**
 * The session tree in React Flow: nodes and edges come ready-made from the store (toFlow ran in
 * an action); this component only draws them, forwards clicks and serves focus requests.
 *
 * Opening a session mounts a fresh React Flow already looking where the open's focus request
 * points (the leaf, or the whole tree when it is small): the first frame draws the right nodes,
 * with no pass over the origin's nodes and no animated move.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { Background, BackgroundVariant, Controls, MiniMap, ReactFlow, ReactFlowProvider, useReactFlow, useStoreApi } from "@xyflow/react";
import type { Node, NodeMouseHandler } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useExplorer } from "../store";
import { edgeTypes } from "./edges";
import type { FlowGraph, FlowNode } from "./layout";
import { nodeTypes } from "./nodes";
import { centerViewport, fitViewport, focusViewport, focusZoom, type CanvasSize } from "./viewport";

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

/** Serves focus requests made after the canvas mounted (the one it mounted with is already shown). */
function FocusController({ served }: { served: number }) {
  const focus = useExplorer((s) => s.focus);
  const flow = useReactFlow();
  const flowStore = useStoreApi();
  useEffect(() => {
    if (!focus || focus.seq === served) return;
    const { graph } = useExplorer.getState();
    if (!graph) return;
    // wait a frame: a relayout that came with the request must reach React Flow first
    const raf = requestAnimationFrame(() => {
      const { width, height } = flowStore.getState();
      const size = { width, height };
      if (focus.target === "fit") {
        void flow.setViewport(fitViewport(graph, size, MIN_ZOOM), { duration: 0 });
        return;
      }
      const centered = centerViewport(graph, focus.target, size, focusZoom(flow.getZoom()));
      if (centered) void flow.setViewport(centered, { duration: 200 });
    });
    return () => cancelAnimationFrame(raf);
  }, [focus, flow, flowStore, served]);
  return null;
}

interface CanvasProps {
  dark: boolean;
  graph: FlowGraph;
  size: CanvasSize;
}

function Canvas({ dark, graph, size }: CanvasProps) {
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

  // read once: React Flow takes its default viewport when it mounts (one mount per session), and
  // the focus request pending then (the open's) is what that viewport shows
  const [start] = useState(() => {
    const focus = useExplorer.getState().focus;
    return { seq: focus?.seq ?? -1, viewport: focusViewport(graph, focus?.target ?? "fit", size, MIN_ZOOM) };
  });
  return (
    <ReactFlow<FlowNode>
      nodes={graph.nodes}
      edges={graph.edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      defaultViewport={start.viewport}
      onlyRenderVisibleElements
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      onNodeClick={onNodeClick}
      onNodeDoubleClick={onNodeDoubleClick}
      minZoom={MIN_ZOOM}
      maxZoom={MAX_ZOOM}
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
      <FocusController served={start.seq} />
    </ReactFlow>
  );
}

const MIN_ZOOM = 0.02;
const MAX_ZOOM = 2;

export function TreeCanvas({ dark }: { dark: boolean }) {
  const sessionId = useExplorer((s) => s.sessionId);
  const graph = useExplorer((s) => s.graph);
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<CanvasSize | null>(null);
  // the canvas's size, known before React Flow mounts (its first viewport depends on it)
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setSize((prev) => (prev && prev.width === el.clientWidth && prev.height === el.clientHeight ? prev : { width: el.clientWidth, height: el.clientHeight }));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  // keyboard users land in the tree when a session opens (arrows, Enter, shortcuts work from here)
  useEffect(() => {
    if (sessionId) box.current?.focus({ preventScroll: true });
  }, [sessionId]);
  return (
    <div className="bz-canvas" data-testid="tree-canvas" ref={box} tabIndex={0} aria-label="Session tree: arrows move, Enter inspects, S switches branch, C compacts">
      {graph && size ? (
        // a new session mounts a new React Flow, so it starts at that session's own viewport
        <ReactFlowProvider key={sessionId}>
          <Canvas dark={dark} graph={graph} size={size} />
        </ReactFlowProvider>
      ) : null}
    </div>
  );
}
