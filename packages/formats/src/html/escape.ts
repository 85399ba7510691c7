/** HTML escaping: every text that reaches the page goes through here. */

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** Text cut to `max` characters, with a note of how much was left out. */
export function capText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n\n[… ${text.length - max} more characters not shown]` : text;
}

/**
 * A count for the page: a finite number formatted ("12,345"), anything else (a session may hold
 * `"tokensBefore": "<img …>"`) escaped and shown as the text it is.
 */
export function countHtml(value: unknown): string {
  return typeof value === "number" && Number.isFinite(value) ? value.toLocaleString("en") : escapeHtml(String(value));
}
