/**
 * The benches' mark of the inspector's read: `window.__bench.inspectedAt` is set (NaN until then) to the
 * frame after the inspector showed the whole entry `entryId` (its header shows at once from the tree;
 * the mark waits until the entry is loaded). Armed before the click that opens the entry.
 */
import type { Page } from "@playwright/test";

export function markWhenInspected(page: Page, entryId: string): Promise<void> {
  return page.evaluate((id) => {
    const bench = (window as unknown as { __bench: { inspectedAt: number } }).__bench;
    bench.inspectedAt = NaN;
    const shown = () => {
      const el = document.querySelector('[data-testid="inspector"]');
      return el?.getAttribute("data-entry-id") === id && el.getAttribute("data-loaded") === "true";
    };
    const observer = new MutationObserver(() => {
      if (!shown()) return;
      observer.disconnect();
      requestAnimationFrame(() => requestAnimationFrame(() => void (bench.inspectedAt = performance.now())));
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-entry-id", "data-loaded"] });
  }, entryId);
}
