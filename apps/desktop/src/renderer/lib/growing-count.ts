/**
 * How many rows of a long list are drawn (thousands of rows in one go cost the page seconds): `step`
 * at first, `step` more each time the row after the drawn ones (`more`) scrolls into view. `key`
 * names what is listed (a filter and sort, a session's node): a new one starts again from `step`.
 */
import { useEffect, useRef, useState, type RefObject } from "react";

export function useGrowingCount(step: number, key: string): { count: number; more: RefObject<HTMLLIElement | null> } {
  const [drawn, setDrawn] = useState({ key, count: step });
  const count = drawn.key === key ? drawn.count : step;
  const more = useRef<HTMLLIElement>(null);
  useEffect(() => {
    const sentinel = more.current;
    if (!sentinel) return;
    const seen = new IntersectionObserver((e) => {
      if (e.some((x) => x.isIntersecting)) setDrawn({ key, count: count + step });
    });
    seen.observe(sentinel);
    return () => seen.disconnect();
  });
  return { count, more };
}
