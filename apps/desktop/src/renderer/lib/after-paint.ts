/**
 * Work kept off the frames that first draw something: it runs once the frame after the next one
 * has begun, so the frame that draws (and the one after it, which shows it was presented) is never
 * held by it. A timer set in a frame's callback runs once that frame's rendering is done.
 */

/** runs `fn` after the next two frames (at once where there are no frames); the returned function cancels it */
export function afterPaint(fn: () => void): () => void {
  if (typeof requestAnimationFrame !== "function") {
    fn();
    return () => undefined;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  let raf = requestAnimationFrame(() => {
    raf = requestAnimationFrame(() => void (timer = setTimeout(fn, 0)));
  });
  return () => {
    cancelAnimationFrame(raf);
    clearTimeout(timer);
  };
}
