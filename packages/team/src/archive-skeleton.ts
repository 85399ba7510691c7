/** An archived entry as a skeleton node: the same fields the local store reads from its derived columns, derived from the entry. */
import type { SessionEntry, SkeletonNode } from "@bonsai/core";
import { deriveColumns, FLAG_FROM_EXTENSION, FLAG_OFFLINE, FLAG_PRUNED, FLAG_THINKING } from "@bonsai/store/derive";

export function skeletonNodeOf(entry: SessionEntry, label: string | undefined): SkeletonNode {
  const d = deriveColumns(entry, false);
  const timestamp = typeof entry.timestamp === "string" ? entry.timestamp : "";
  const node: SkeletonNode = { id: entry.id, parentId: entry.parentId ?? null, type: entry.type, role: d.role, timestamp, tokens: d.tokens, preview: d.preview };
  if (label !== undefined) node.label = label;
  if (d.toolName !== null) node.toolName = d.toolName;
  if (d.flags & FLAG_PRUNED) node.pruned = true;
  if (d.flags & FLAG_THINKING) node.thinking = true;
  if (d.flags & FLAG_FROM_EXTENSION) node.fromExtension = true;
  if (d.flags & FLAG_OFFLINE) node.offline = true;
  if (d.stopReason !== null) node.stopReason = d.stopReason;
  if (d.customType !== null) node.customType = d.customType;
  if (d.refId !== null) {
    if (entry.type === "compaction") node.firstKeptEntryId = d.refId;
    else node.fromId = d.refId;
  }
  if (d.tokensBefore !== null) node.tokensBefore = d.tokensBefore;
  return node;
}
