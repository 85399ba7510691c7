/**
 * A handle between two panes: drag it, or focus it and use the arrow keys (Home/End for the
 * limits). The size is the store's (remembered between runs).
 */
import type { PaneSizes } from "../state/ui-slice";
import { PANE_LIMITS } from "../state/ui-slice";
import { useBonsai } from "../state/store";

interface SplitterProps {
  pane: keyof PaneSizes;
  /** the pane grows when the handle moves right (the sidebar) or left (the side panel) */
  grows: "right" | "left";
  label: string;
}

export function Splitter({ pane, grows, label }: SplitterProps) {
  const size = useBonsai((s) => s.panes[pane]);
  const setPane = useBonsai((s) => s.setPane);
  const sign = grows === "right" ? 1 : -1;
  const limits = PANE_LIMITS[pane];
  return (
    <div
      className="bz-splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={size}
      aria-valuemin={limits.min}
      aria-valuemax={limits.max}
      tabIndex={0}
      data-testid={`splitter-${pane}`}
      onPointerDown={(e) => {
        e.preventDefault();
        const startX = e.clientX;
        const start = size;
        const target = e.currentTarget;
        target.setPointerCapture(e.pointerId);
        const move = (ev: PointerEvent) => setPane(pane, start + sign * (ev.clientX - startX));
        const up = () => {
          target.removeEventListener("pointermove", move);
          target.removeEventListener("pointerup", up);
        };
        target.addEventListener("pointermove", move);
        target.addEventListener("pointerup", up);
      }}
      onKeyDown={(e) => {
        const step = e.shiftKey ? 64 : 16;
        if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
          e.preventDefault();
          e.stopPropagation();
          setPane(pane, size + (e.key === "ArrowRight" ? step : -step) * sign);
        } else if (e.key === "Home" || e.key === "End") {
          e.preventDefault();
          setPane(pane, (e.key === "End") === (sign > 0) ? limits.max : limits.min);
        }
      }}
    />
  );
}
