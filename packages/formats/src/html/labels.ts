/** Short names and previews of entries, shared by the tree and the transcript. */
import type { SessionEntry } from "@bonsai/core";
import { agentEventOf } from "../entries";
import { entryText } from "../text";
import { isObj, oneLine, str } from "../values";

export type EntryKind = "user" | "assistant" | "toolResult" | "compaction" | "branchSummary" | "custom" | "meta";

const MESSAGE_KINDS: Record<string, EntryKind> = { user: "user", assistant: "assistant", toolResult: "toolResult" };
const ENTRY_KINDS: Record<string, EntryKind> = { compaction: "compaction", branch_summary: "branchSummary", custom_message: "custom" };

/** How an entry is drawn: messages by role (other roles as custom), summaries, and the rest as metadata. */
export function kindOf(entry: SessionEntry): EntryKind {
  const e = entry as unknown as Record<string, unknown>;
  if (e.type === "message") return MESSAGE_KINDS[String(isObj(e.message) ? e.message.role : "")] ?? "custom";
  return ENTRY_KINDS[String(e.type)] ?? "meta";
}

/** The title of an entry ("User", "Assistant → Bash", "Compaction", "progress", ...). */
export function titleOf(entry: SessionEntry): string {
  const e = entry as unknown as Record<string, unknown>;
  const m = isObj(e.message) ? e.message : {};
  switch (kindOf(entry)) {
    case "user":
      return "User";
    case "assistant": {
      const tools = (Array.isArray(m.content) ? m.content : []).filter((b) => isObj(b) && b.type === "toolCall").map((b) => str((b as Record<string, unknown>).name) ?? "");
      const base = m.stopReason === "error" ? "Assistant · error" : m.stopReason === "aborted" ? "Assistant · aborted" : "Assistant";
      return tools.length > 0 ? `${base} → ${tools.join(", ")}` : base;
    }
    case "toolResult":
      return `Tool result · ${str(m.toolName) || "tool"}${m.prunedAt !== undefined ? " · pruned" : ""}`;
    case "compaction":
      return "Compaction";
    case "branchSummary":
      return "Branch summary";
    case "custom":
      return `Custom · ${str(e.customType) ?? str(m.customType) ?? str(m.role) ?? "message"}`;
    default:
      return agentEventOf(entry)?.event ?? String(e.type).replace(/_/g, " ");
  }
}

export function previewOf(entry: SessionEntry, max = 120): string {
  return oneLine(entryText(entry), max);
}
