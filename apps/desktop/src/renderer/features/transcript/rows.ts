/**
 * The transcript's rows, from its path: the fold of what the latest compaction summarized, the
 * entries, and one row per run of agent events (Claude Code hook, progress and system lines, Codex
 * event_msg lines, ...: what the agent recorded beside the conversation), folded unless opened.
 * Pure; tested.
 */
import type { TranscriptItem } from "./reading-path";

export interface EventRun {
  kind: "events";
  /** the run's first entry: names it while the path stays the same */
  key: string;
  ids: string[];
  /** what each kind of event counts in the run, most frequent first */
  counts: Array<[event: string, count: number]>;
  open: boolean;
  summarized: boolean;
}

export type Row = { kind: "fold"; ids: string[]; compactionId: string } | { kind: "entry"; id: string; summarized: boolean; inRun?: true } | EventRun;

export interface RowOptions {
  /** the summarized entries are shown (not folded into one row) */
  unfolded: boolean;
  /** the agent's name of an entry's event kind, when it is an agent event; undefined otherwise */
  eventOf(id: string): string | undefined;
  /** the runs the reader opened (true) or closed (false), by key; the others are closed */
  choices: ReadonlyMap<string, boolean>;
  /** an entry to show (the selected one): its run opens unless the reader closed it */
  reveal: string | null;
}

function entryRows(items: readonly TranscriptItem[], unfolded: boolean): Array<Row & { kind: "fold" | "entry" }> {
  const rows: Array<Row & { kind: "fold" | "entry" }> = [];
  for (const it of items) {
    if (it.kind === "entry") rows.push({ kind: "entry", id: it.id, summarized: false });
    else if (unfolded) for (const id of it.ids) rows.push({ kind: "entry", id, summarized: true });
    else rows.push({ kind: "fold", ids: it.ids, compactionId: it.compactionId });
  }
  return rows;
}

function countEvents(ids: readonly string[], eventOf: (id: string) => string | undefined): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const id of ids) {
    const e = eventOf(id) ?? "event";
    counts.set(e, (counts.get(e) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** The rows: consecutive agent events make one run row; an open run's entries follow it. */
export function transcriptRows(items: readonly TranscriptItem[], options: RowOptions): Row[] {
  const out: Row[] = [];
  let run: string[] = [];
  let runSummarized = false;
  const flush = () => {
    if (run.length === 0) return;
    const key = run[0] as string;
    const open = options.choices.get(key) ?? (options.reveal !== null && run.includes(options.reveal));
    out.push({ kind: "events", key, ids: run, counts: countEvents(run, options.eventOf), open, summarized: runSummarized });
    if (open) for (const id of run) out.push({ kind: "entry", id, summarized: runSummarized, inRun: true });
    run = [];
  };
  for (const row of entryRows(items, options.unfolded)) {
    if (row.kind === "entry" && options.eventOf(row.id) !== undefined) {
      if (run.length > 0 && runSummarized !== row.summarized) flush();
      runSummarized = row.summarized;
      run.push(row.id);
      continue;
    }
    flush();
    out.push(row);
  }
  flush();
  return out;
}

/** "7 agent events" */
export function eventRunTitle(run: Pick<EventRun, "ids">): string {
  return `${run.ids.length.toLocaleString("en")} agent ${run.ids.length === 1 ? "event" : "events"}`;
}

/** "progress ×4, system/turn_duration ×3, mode" (the first few kinds, then how many more) */
export function eventRunKinds(run: Pick<EventRun, "counts">, most = 3): string {
  const shown = run.counts.slice(0, most).map(([e, n]) => (n > 1 ? `${e} ×${n.toLocaleString("en")}` : e));
  const rest = run.counts.length - most;
  return rest > 0 ? `${shown.join(", ")} and ${rest} more ${rest === 1 ? "kind" : "kinds"}` : shown.join(", ");
}
