/** Small helpers over plain values shared by the engine's modules. */

/** `obj` without its undefined fields (deleted in place), so they are not written to entries or events. */
export function withoutUndefined<T extends Record<string, unknown>>(obj: T): T {
  for (const key of Object.keys(obj)) if (obj[key] === undefined) delete obj[key];
  return obj;
}

/** The text of a user message's content (its text blocks joined). */
export function userText(content: string | { type: string; text?: string }[]): string {
  if (typeof content === "string") return content;
  return content.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("");
}
