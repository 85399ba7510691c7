/**
 * The session tree in React Flow: nodes and edges come ready-made from the store (toFlow ran in an
 * action); this component draws them, forwards clicks and serves focus requests.
 *
 * Semantic zoom: below OVERVIEW_ZOOM React Flow draws no nodes at all and the OverviewLayer paints
 * the whole tree on one canvas (bars, compaction bands, branch points, leaves), so a fitted
 * 100,000-entry session shows its shape with a handful of DOM elements. Above it, nodes are
 * readable cards; brackets beside the active path's column show what the latest compaction
 * summarized and kept, and the Compact panel's plan shades the range it would summarize.
 *
 * Opening a session mounts a fresh React Flow already looking where the open's focus request
 * points (the leaf, or the whole tree when it is small): the first frame draws the right nodes, and
 * for a large tree only those (first-screen.ts); the whole graph follows once it is painted.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent, type ReactNode } from "react";
import { Background, BackgroundVariant, ReactFlow, ReactFlowProvider, useReactFlow, useStore, useStoreApi, ViewportPortal } from "@xyflow/react";
import type { Edge, NodeMouseHandler } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useBonsai } from "../../state/store";
import { FIRST_SCREEN_FROM, firstScreen, usePaintedOnce } from "./first-screen";
import { NODE_W, type FlowGraph, type FlowNode } from "./layout";
import { Minimap } from "./Minimap";
import { nodeTypes } from "./nodes";
import { OverviewLayer } from "./OverviewLayer";
import { hitTest, OVERVIEW_ZOOM, pathRanges, rowBottom, rowsOf, rowTop } from "./overview";
import { geometryIn } from "./overview-viewport";
import { OverviewZoom, ZoomControls } from "./OverviewZoom";
import { centerViewport, fitViewport, focusViewport, focusZoom, type CanvasSize } from "./viewport";

export const MIN_ZOOM = 0.0005;
const MAX_ZOOM = 2;
const ZOOM_LIMITS = { min: MIN_ZOOM, max: MAX_ZOOM };
const NO_NODES: FlowNode[] = [];
const NO_EDGES: Edge[] = [];

/** Serves focus requests made after the canvas mounted (the one it mounted with is already shown). */
function FocusController({ served }: { served: number }) {
  const focus = useBonsai((s) => s.focus);
  const flow = useReactFlow();
  const flowStore = useStoreApi();
  useEffect(() => {
    if (!focus || focus.seq === served) return;
    const { graph } = useBonsai.getState();
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

/** Brackets in the gutter left of the active path's column: summarized (not sent) and kept. */
function PathBrackets({ graph }: { graph: FlowGraph }) {
  const ranges = useMemo(() => pathRanges(graph), [graph]);
  const bracket = (range: [number, number], kind: "summarized" | "kept", text: string) => (
    <div
      key={kind}
      className={`bz-bracket bz-bracket-${kind}`}
      data-testid={`bracket-${kind}`}
      style={{ transform: `translate(-44px, ${rowTop(range[0])}px)`, height: rowBottom(range[1]) - rowTop(range[0]) }}
    >
      <span className="bz-bracket-text">{text}</span>
    </div>
  );
  return (
    <ViewportPortal>
      {ranges.summarized ? bracket(ranges.summarized, "summarized", "summarized · not sent") : null}
      {ranges.kept ? bracket(ranges.kept, "kept", "kept · sent") : null}
    </ViewportPortal>
  );
}

/** The Compact panel's plan: the range a compaction at the leaf would summarize, shaded. */
function PlanShade({ graph }: { graph: FlowGraph }) {
  const plan = useBonsai((s) => (s.panel === "compact" && s.plan?.possible ? s.plan : null));
  const dry = useBonsai((s) => s.dryRun !== null);
  const index = useBonsai((s) => s.index);
  const rows = useMemo(() => (plan && index ? rowsOf(graph, index, [...plan.summarizedEntryIds, ...plan.turnPrefixEntryIds]) : null), [plan, index, graph]);
  if (!rows) return null;
  return (
    <ViewportPortal>
      <div
        className="bz-plan-shade"
        data-testid="plan-shade"
        style={{ transform: `translate(-20px, ${rowTop(rows[0]) - 10}px)`, width: NODE_W + 40, height: rowBottom(rows[1]) - rowTop(rows[0]) + 20 }}
      >
        <span className="bz-plan-shade-text">{dry ? "the dry run summarizes this" : "a compaction would summarize this"}</span>
      </div>
    </ViewportPortal>
  );
}

interface CanvasProps {
  dark: boolean;
  graph: FlowGraph;
  size: CanvasSize;
}

function Canvas({ dark, graph, size }: CanvasProps) {
  const select = useBonsai((s) => s.select);
  const toggleSegment = useBonsai((s) => s.toggleSegment);
  const setWork = useBonsai((s) => s.setWork);
  const overview = useStore((s) => s.transform[2] < OVERVIEW_ZOOM);
  const flowStore = useStoreApi();
  const requestFocus = useBonsai((s) => s.requestFocus);
  // the overview has no React Flow nodes: a click picks the bar under the pointer (a double click zooms to it)
  const onPaneClick = useCallback(
    (event: ReactMouseEvent) => {
      if (!overview) return;
      const { transform, domNode, width } = flowStore.getState();
      const rect = domNode?.getBoundingClientRect();
      if (!rect) return;
      const v = hitTest(graph, geometryIn(graph, { x: transform[0], y: transform[1], zoom: transform[2] }, width), event.clientX - rect.left, event.clientY - rect.top);
      const node = v >= 0 ? graph.nodes[v] : undefined;
      if (!node) return;
      select(node.id, node.type === "entry" ? "inspect" : undefined);
      if (event.detail >= 2) requestFocus(node.id);
    },
    [overview, flowStore, graph, select, requestFocus],
  );

  const onNodeClick = useCallback<NodeMouseHandler<FlowNode>>(
    (_event, node) => {
      if (node.type === "segment") toggleSegment(node.id);
      else select(node.id, "inspect");
    },
    [select, toggleSegment],
  );
  const onNodeDoubleClick = useCallback<NodeMouseHandler<FlowNode>>(
    (_event, node) => {
      // a branch switch moves the leaf: not on a host where nothing changes (a team archive)
      if (node.type === "entry" && useBonsai.getState().appInfo?.readOnly === undefined) setWork({ switchTarget: node.id });
    },
    [setWork],
  );

  // read once: React Flow takes its default viewport when it mounts (one mount per session), and
  // the focus request pending then (the open's) is what that viewport shows
  const [start] = useState(() => {
    const focus = useBonsai.getState().focus;
    return { seq: focus?.seq ?? -1, viewport: focusViewport(graph, focus?.target ?? "fit", size, MIN_ZOOM) };
  });
  // a large tree's first frame: the nodes in the starting view only; the whole graph once that is painted
  const painted = usePaintedOnce();
  const first = useMemo(() => (painted || graph.nodes.length <= FIRST_SCREEN_FROM ? null : firstScreen(graph, start.viewport, size)), [painted, graph, start.viewport, size]);
  return (
    <ReactFlow<FlowNode>
      nodes={overview ? NO_NODES : (first?.nodes ?? graph.nodes)}
      edges={overview ? NO_EDGES : (first?.edges ?? graph.edges)}
      nodeTypes={nodeTypes}
      defaultViewport={start.viewport}
      onlyRenderVisibleElements
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      onNodeClick={onNodeClick}
      onNodeDoubleClick={onNodeDoubleClick}
      onPaneClick={onPaneClick}
      minZoom={MIN_ZOOM}
      maxZoom={MAX_ZOOM}
      colorMode={dark ? "dark" : "light"}
      proOptions={{ hideAttribution: true }}
      zoomOnDoubleClick={false}
      deleteKeyCode={null}
      selectionKeyCode={null}
      multiSelectionKeyCode={null}
      disableKeyboardA11y
      data-overview={overview ? "true" : "false"}
    >
      {overview ? null : <Background variant={BackgroundVariant.Dots} gap={24} size={1} />}
      {overview ? <OverviewLayer graph={graph} dark={dark} /> : <PathBrackets graph={graph} />}
      {overview ? null : <PlanShade graph={graph} />}
      <ZoomControls graph={graph} limits={ZOOM_LIMITS} />
      <FocusController served={start.seq} />
      <OverviewZoom graph={graph} limits={ZOOM_LIMITS} />
    </ReactFlow>
  );
}

/** A person's words for the selected node, read by screen readers as the selection moves. */
function SelectionStatus() {
  const text = useBonsai((s) => {
    const v = s.selectedId && s.graph ? s.graph.flowIndex.get(s.selectedId) : undefined;
    const node = v === undefined ? undefined : s.graph?.nodes[v];
    if (!node) return "";
    return node.type === "segment" ? `${node.data.count} entries: ${node.data.preview}` : `${node.data.kind} ${node.id}: ${node.data.preview}`;
  });
  return (
    <div className="bz-sr-only" role="status" aria-live="polite" data-testid="tree-selection-status">
      {text}
    </div>
  );
}

/** its children once the frame after it mounted has been painted (the minimap: after the tree's first frame) */
function PaintedLater({ children }: { children: ReactNode }) {
  return usePaintedOnce() ? children : null;
}

export function TreeCanvas({ dark }: { dark: boolean }) {
  const sessionId = useBonsai((s) => s.openSessionId);
  const graph = useBonsai((s) => s.graph);
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
    // a new session mounts a new React Flow, so it starts at that session's own viewport
    <ReactFlowProvider key={sessionId}>
      <div className="bz-canvas-row">
        <div
          className="bz-canvas"
          data-testid="tree-canvas"
          ref={box}
          tabIndex={0}
          role="group"
          aria-roledescription="session tree"
          aria-label="Session tree: arrow keys move the selection, Enter inspects or expands, ? lists every key"
          onMouseDown={(e) => {
            // a click in the tree makes it the place the arrow keys act on
            if (e.target instanceof HTMLElement && !e.target.closest("button")) box.current?.focus({ preventScroll: true });
          }}
        >
          {graph && size ? <Canvas dark={dark} graph={graph} size={size} /> : null}
          <SelectionStatus />
        </div>
        {graph ? <PaintedLater><Minimap graph={graph} /></PaintedLater> : null}
      </div>
    </ReactFlowProvider>
  );
}
