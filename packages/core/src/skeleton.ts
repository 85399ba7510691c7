/**
 * The tree skeleton: what the UI needs to draw a session's tree without loading whole entries.
 * Produced by the store (one row per entry, file order), consumed by the renderer through ipc.
 */

export interface SkeletonNode {
  id: string;
  parentId: string | null;
  /** entry type: "message", "compaction", "branch_summary", "label", ... (unknown types kept verbatim) */
  type: string;
  /** message role for message entries ("user", "assistant", "toolResult", "bashExecution", ...), else null */
  role: string | null;
  /** ISO timestamp of the entry */
  timestamp: string;
  /** estimateTokens of the entry's message (0 for metadata) */
  tokens: number;
  /** short single-line preview (<= 160 chars) */
  preview: string;
  /** resolved label on this entry, if any */
  label?: string;
  /** tool name for toolResult messages; tool names called for assistant messages (comma-joined) */
  toolName?: string;
  /** toolResult whose output was pruned (prunedAt set) */
  pruned?: boolean;
  /** assistant stopReason when "error" or "aborted" */
  stopReason?: string;
  /** customType for custom / custom_message entries */
  customType?: string;
  /** compaction: firstKeptEntryId; branch_summary: fromId */
  firstKeptEntryId?: string;
  fromId?: string;
  /** compaction / branch summary written by an extension or hook */
  fromExtension?: boolean;
  /** compaction / branch summary written by Bonsai's offline summarizer */
  offline?: boolean;
  /** compaction: tokensBefore (the explorer shows it on the compaction node) */
  tokensBefore?: number;
  /** assistant message with at least one non-empty thinking block */
  thinking?: boolean;
  /**
   * The preview was left out of the answer that brought this node (`preview` is ""): the tree
   * draws it inside a collapsed run. The backend's getPreviews gives it when it is to be shown.
   */
  previewLater?: true;
}

export interface TreeSkeleton {
  sessionId: string;
  /** current leaf (last entry in file order unless moved), null = before the first entry */
  leafId: string | null;
  nodes: SkeletonNode[];
}

/** Nodes added after others that change one of those: a label entry sets its target's label. */
export function relabelsOlderNodes(added: readonly SkeletonNode[]): boolean {
  return added.some((n) => n.type === "label");
}
