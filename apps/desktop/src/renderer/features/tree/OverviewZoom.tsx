/**
 * Wheel and pinch zoom over the overview. React Flow zooms about the pointer at true scale, but the
 * overview spreads its lanes wider than that, so its zoom would slide the tree sideways until the
 * canvas is blank: while the canvas is (or is zooming into) the overview, the wheel is taken here
 * and zooms about the lane and row under the pointer (overview-viewport.ts), and a pan that ends
 * with the tree out of view brings it back to the edge.
 */
import { useEffect } from "react";
import { useOnViewportChange, useReactFlow, useStore, useStoreApi } from "@xyflow/react";
import type { FlowGraph } from "./layout";
import { OVERVIEW_ZOOM } from "./overview";
import { keepInView, wheelFactor, zoomAt } from "./overview-viewport";

/** React Flow takes a trackpad pinch (a wheel with Ctrl) ten times stronger on macOS: so do we */
const isMac = typeof navigator !== "undefined" && /Mac/u.test(navigator.platform);

export function OverviewZoom({ graph, limits }: { graph: FlowGraph; limits: { min: number; max: number } }) {
  const flowStore = useStoreApi();
  const flow = useReactFlow();
  const domNode = useStore((s) => s.domNode);

  useEffect(() => {
    if (!domNode) return;
    const onWheel = (e: WheelEvent) => {
      const { transform, width, height } = flowStore.getState();
      const t = { x: transform[0], y: transform[1], zoom: transform[2] };
      const factor = wheelFactor(e.deltaY, e.deltaMode, e.ctrlKey && isMac);
      // both sides at the readable zoom: lanes are at true scale there, React Flow's own zoom is right
      if (t.zoom >= OVERVIEW_ZOOM && t.zoom * factor >= OVERVIEW_ZOOM) return;
      e.preventDefault();
      e.stopPropagation();
      const rect = domNode.getBoundingClientRect();
      void flow.setViewport(zoomAt(graph, t, factor, e.clientX - rect.left, e.clientY - rect.top, { width, height }, limits), { duration: 0 });
    };
    // capture, on React Flow's root: before its zoom handler on the pane below sees the event
    domNode.addEventListener("wheel", onWheel, { capture: true, passive: false });
    return () => domNode.removeEventListener("wheel", onWheel, { capture: true });
  }, [domNode, flowStore, flow, graph, limits]);

  useOnViewportChange({
    onEnd: (viewport) => {
      if (viewport.zoom >= OVERVIEW_ZOOM) return;
      const { width, height } = flowStore.getState();
      const kept = keepInView(graph, viewport, { width, height });
      if (kept.x !== viewport.x || kept.y !== viewport.y) void flow.setViewport(kept, { duration: 0 });
    },
  });
  return null;
}
