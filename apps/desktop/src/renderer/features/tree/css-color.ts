/**
 * A CSS colour variable as a canvas can use it. The palette uses light-dark(), which a canvas
 * fillStyle does not understand: the browser resolves it on an element's `color`.
 */
export function cssColor(el: HTMLElement, variable: string): string {
  const probe = document.createElement("span");
  probe.style.color = `var(${variable})`;
  probe.style.display = "none";
  el.parentElement?.appendChild(probe);
  const resolved = getComputedStyle(probe).color;
  probe.remove();
  return resolved || "#888";
}
