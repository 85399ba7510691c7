/**
 * Wheel and pinch zoom over the overview. React Flow zooms about the pointer at true scale, but the
 * overview spreads its lanes wider than that, so its zoom would slide the tree sideways until the
 * canvas is blank: while the canvas is (or is zooming into) the overview, the wheel is taken here
 * and zooms about the lane and row under the pointer (overview-viewport.ts), and a pan that ends
 * with the tree out of view brings it back to the edge. The zoom buttons zoom the same way about the
 * canvas's middle (React Flow's own would slide the overview too), and their Fit is the toolbar's.
 */
import { useEffect } from "react";
import { ControlButton, Controls, useOnViewportChange, useReactFlow, useStore, useStoreApi } from "@xyflow/react";
import { useBonsai } from "../../state/store";
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

/** one zoom button step, as React Flow's own buttons */
const BUTTON_STEP = 1.2;

/** The canvas's zoom buttons (bottom left): in, out, and Fit, on the overview's geometry. */
export function ZoomControls({ graph, limits }: { graph: FlowGraph; limits: { min: number; max: number } }) {
  const flowStore = useStoreApi();
  const flow = useReactFlow();
  const requestFocus = useBonsai((s) => s.requestFocus);
  const zoom = useStore((s) => s.transform[2]);
  const step = (factor: number) => {
    const { transform, width, height } = flowStore.getState();
    const t = { x: transform[0], y: transform[1], zoom: transform[2] };
    void flow.setViewport(zoomAt(graph, t, factor, width / 2, height / 2, { width, height }, limits), { duration: 0 });
  };
  return (
    <Controls showZoom={false} showFitView={false} showInteractive={false} aria-label="Zoom">
      <ControlButton className="react-flow__controls-zoomin" onClick={() => step(BUTTON_STEP)} disabled={zoom >= limits.max} title="Zoom in" aria-label="Zoom in">
        <svg viewBox="0 0 12 12" aria-hidden>
          <path d="M6 1v10M1 6h10" stroke="currentColor" strokeWidth="2" fill="none" />
        </svg>
      </ControlButton>
      <ControlButton className="react-flow__controls-zoomout" onClick={() => step(1 / BUTTON_STEP)} disabled={zoom <= limits.min} title="Zoom out" aria-label="Zoom out">
        <svg viewBox="0 0 12 12" aria-hidden>
          <path d="M1 6h10" stroke="currentColor" strokeWidth="2" fill="none" />
        </svg>
      </ControlButton>
      <ControlButton className="react-flow__controls-fitview" onClick={() => requestFocus("fit")} title="Fit the whole tree (F)" aria-label="Fit the whole tree">
        <svg viewBox="0 0 12 12" aria-hidden>
          <path d="M1 4V1h3M8 1h3v3M11 8v3H8M4 11H1V8" stroke="currentColor" strokeWidth="1.6" style={{ fill: "none" }} />
        </svg>
      </ControlButton>
    </Controls>
  );
}
