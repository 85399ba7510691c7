/**
 * The output notice omp appends to user bash/python executions from their `meta`
 * (spec: context-building.md §2.2): truncation, limits, column truncation, then LSP diagnostics.
 */
import type { OutputMeta } from "./entries";

interface Range {
  start: number;
  end: number;
}

interface TruncationMeta {
  truncatedBy?: string;
  totalLines?: number;
  outputLines?: number;
  outputBytes?: number;
  maxBytes?: number;
  shownRange?: Range;
  nextOffset?: number;
  artifactId?: string;
}

interface LimitMeta {
  reached: number;
  suggestion: number;
}

interface LimitsMeta {
  matchLimit?: LimitMeta;
  resultLimit?: LimitMeta;
  headLimit?: LimitMeta;
  columnTruncated?: { maxColumn: number };
}

interface DiagnosticsMeta {
  summary: string;
  messages: string[];
}

/** Human-readable byte size: 512B, 50.0KB, 1.5MB. */
export function formatByteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function truncationNotice(t: TruncationMeta): string {
  const range = t.shownRange;
  let text =
    range && range.end >= range.start
      ? `Showing lines ${range.start}-${range.end} of ${t.totalLines}`
      : `Showing ${t.outputLines} of ${t.totalLines} lines`;
  if (t.truncatedBy === "bytes") text += ` (${formatByteSize(t.maxBytes ?? t.outputBytes ?? 0)} limit)`;
  if (t.nextOffset !== undefined && t.nextOffset !== null) text += `. Use offset=${t.nextOffset} to continue`;
  else if (t.artifactId) text += `. Full: artifact://${t.artifactId}`;
  return text;
}

/** "" without meta; otherwise "\n\n[part. part]" plus an LSP diagnostics block when present. */
export function formatOutputNotice(meta: OutputMeta | undefined): string {
  if (!meta) return "";
  const parts: string[] = [];
  const truncation = meta.truncation as TruncationMeta | undefined;
  if (truncation) parts.push(truncationNotice(truncation));
  const limits = (meta.limits ?? {}) as LimitsMeta;
  if (limits.matchLimit) parts.push(`${limits.matchLimit.reached} matches limit reached. Use limit=${limits.matchLimit.suggestion} for more`);
  for (const limit of [limits.resultLimit, limits.headLimit]) {
    if (limit) parts.push(`${limit.reached} results limit reached. Use limit=${limit.suggestion} for more`);
  }
  if (limits.columnTruncated) parts.push(`Some lines truncated to ${limits.columnTruncated.maxColumn} chars`);
  let notice = parts.length > 0 ? `\n\n[${parts.join(". ")}]` : "";
  const diagnostics = meta.diagnostics as DiagnosticsMeta | undefined;
  if (diagnostics && Array.isArray(diagnostics.messages) && diagnostics.messages.length > 0) {
    notice += `\n\nLSP Diagnostics (${diagnostics.summary}):\n  ${diagnostics.messages.join("\n  ")}`;
  }
  return notice;
}
