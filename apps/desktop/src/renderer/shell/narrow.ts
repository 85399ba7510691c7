/**
 * The narrow window: below NARROW_WIDTH px the session list becomes a drawer, the side panel takes
 * at most about a third of the width and the map starts folded, so the tree keeps at least half
 * the window. One media query, the same in the CSS (`explorer.css`, `styles.css`).
 */
export const NARROW_WIDTH = 1200;
export const NARROW_QUERY = `(max-width: ${NARROW_WIDTH - 0.02}px)`;

const media = (): MediaQueryList | null => (typeof window !== "undefined" && typeof window.matchMedia === "function" ? window.matchMedia(NARROW_QUERY) : null);

/** Whether the window is narrow now (false where there is no window, as in unit tests). */
export function isNarrowWindow(): boolean {
  return media()?.matches ?? false;
}

/** Calls `onChange` whenever the window crosses the narrow width; returns the unsubscribe. */
export function watchNarrowWindow(onChange: (narrow: boolean) => void): () => void {
  const m = media();
  if (!m) return () => {};
  const listener = (e: MediaQueryListEvent) => onChange(e.matches);
  m.addEventListener("change", listener);
  return () => m.removeEventListener("change", listener);
}
