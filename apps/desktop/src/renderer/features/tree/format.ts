/** Small display helpers shared by the tree, the inspector and the panels (pure, tested). */
import type { EntryNodeData } from "./layout";

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });
const full = new Intl.NumberFormat("en");

/** 950 -> "950", 15320 -> "15.3K" */
export function formatTokens(n: number): string {
  return n < 1000 ? String(Math.round(n)) : compact.format(n);
}

/** 1536 -> "1.5 KB", 3_500_000 -> "3.5 MB" */
export function formatBytes(n: number): string {
  if (n < 1024) return `${Math.round(n)} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** 150000 -> "150,000" */
export function formatInt(n: number): string {
  return full.format(Math.round(n));
}

/**
 * A number field of an entry as read from a session file, which may hold anything: a number is
 * formatted, anything else is shown as the text it is (never computed with).
 */
export function formatField(v: unknown, format: (n: number) => string = formatInt): string {
  if (typeof v === "number" && Number.isFinite(v)) return format(v);
  if (v === undefined || v === null) return "—";
  return typeof v === "string" ? v : JSON.stringify(v);
}

const META_TITLES: Record<string, string> = {
  model_change: "Model change",
  thinking_level_change: "Thinking level",
  label: "Label",
  session_info: "Session info",
  session_init: "Session init",
  mode_change: "Mode change",
  ttsr_injection: "Rules injected",
  custom: "Extension data",
};

/** The title line of an entry node. */
export function nodeTitle(d: Pick<EntryNodeData, "kind" | "type" | "role" | "toolName" | "customType" | "stopReason">): string {
  switch (d.kind) {
    case "user":
      return "User";
    case "assistant": {
      const base = d.stopReason === "error" ? "Assistant · error" : d.stopReason === "aborted" ? "Assistant · aborted" : "Assistant";
      return d.toolName ? `${base} → ${d.toolName}` : base;
    }
    case "toolResult":
      return d.toolName ? `Tool result · ${d.toolName}` : "Tool result";
    case "bash":
      return d.role === "pythonExecution" ? "Python" : "Bash";
    case "custom":
      return d.customType ? `Custom · ${d.customType}` : d.role === "fileMention" ? "File mention" : "Custom message";
    case "compaction":
      return "Compaction";
    case "branchSummary":
      return "Branch summary";
    case "meta":
      // a Claude Code / Codex line that is not conversation: its kind as the agent names it
      if (d.type === "agent_event") return d.customType ? `Event · ${d.customType}` : "Agent event";
      return META_TITLES[d.type] ?? d.type;
  }
}

/** A summary node's preview without the "Compaction: " / "Branch summary: " prefix its title already says. */
export function summaryPreview(preview: string): string {
  return preview.replace(/^(Compaction|Branch summary): /u, "");
}

/** "2026-01-01T10:00:00.000Z" -> local "Jan 1, 10:00:00" (the raw value when unparsable) */
export function formatTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return new Date(ms).toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}
