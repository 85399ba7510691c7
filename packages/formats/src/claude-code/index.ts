/** The Claude Code reader: detection from the content of a transcript's first lines. */
import type { SessionReader } from "../types";
import { isObj, type Obj } from "../values";
import { ClaudeCodeReader } from "./reader";

/** Line types only Claude Code writes (conversation, progress and the lines without uuid). */
const LINE_TYPES = new Set([
  "user",
  "assistant",
  "system",
  "progress",
  "attachment",
  "summary",
  "file-history-snapshot",
  "last-prompt",
  "mode",
  "permission-mode",
  "bridge-session",
  "ai-title",
  "custom-title",
  "agent-name",
  "queue-operation",
]);

function looksLikeClaudeLine(v: Obj): boolean {
  if (!LINE_TYPES.has(v.type as string)) return false;
  if (typeof v.uuid === "string" && typeof v.sessionId === "string") return true;
  if (v.type === "summary") return typeof v.leafUuid === "string";
  if (v.type === "file-history-snapshot") return typeof v.messageId === "string" && isObj(v.snapshot);
  return typeof v.sessionId === "string";
}

export const claudeCodeReader: SessionReader = {
  format: "claude-code",
  displayName: "Claude Code",
  sniff: (values) => {
    const objects = values.filter(isObj);
    return objects.length > 0 && objects.some(looksLikeClaudeLine) && !objects.some((v) => v.type === "session");
  },
  read: (text) => new ClaudeCodeReader().readAll(text),
  incremental: () => new ClaudeCodeReader(),
};
