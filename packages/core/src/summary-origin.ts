/**
 * Who wrote a compaction's or branch summary's text, as the entry records it: a hook or extension
 * (`fromHook` / `fromExtension`), Bonsai's offline summarizer (`details.summarizer: "offline"`,
 * which Bonsai writes on the summaries it made without a model; `details.offline: true` in files
 * written before), or else the summarization model (the agent's or the one configured in Bonsai).
 */
export type SummaryOrigin = "hook" | "offline" | "model";

/** the origin of a summary entry's text (any entry: only its fields are read) */
export function summaryOrigin(entry: unknown): SummaryOrigin {
  const e = (typeof entry === "object" && entry !== null ? entry : {}) as { fromHook?: unknown; fromExtension?: unknown; details?: unknown };
  if (e.fromHook === true || e.fromExtension === true) return "hook";
  const details = (typeof e.details === "object" && e.details !== null ? e.details : {}) as { summarizer?: unknown; offline?: unknown };
  if (details.summarizer === "offline" || details.offline === true) return "offline";
  return "model";
}

/** the words for it, as the inspector's "written by" and the exports say it */
export function summaryOriginLabel(origin: SummaryOrigin): string {
  switch (origin) {
    case "hook":
      return "a hook or extension";
    case "offline":
      return "Bonsai's offline summarizer (no model)";
    case "model":
      return "the summarization model";
  }
}
