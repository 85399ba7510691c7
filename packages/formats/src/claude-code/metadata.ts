/** One sentence for each non-conversation line of a Claude Code transcript. */
import { arr, isObj, num, oneLine, str, type Obj } from "../values";

function progressText(data: Obj): string {
  switch (data.type) {
    case "hook_progress":
      return `hook ${str(data.hookName) ?? str(data.hookEvent) ?? ""} running: ${str(data.command) ?? ""}`;
    case "bash_progress":
      return "command output so far (progress)";
    case "agent_progress":
      return "sub-agent progress";
    default:
      return `progress: ${str(data.type) ?? "?"}`;
  }
}

function systemText(line: Obj): string {
  const subtype = str(line.subtype) ?? "";
  switch (subtype) {
    case "turn_duration": {
      const ms = num(line.durationMs);
      return ms !== undefined ? `the turn took ${(ms / 1000).toFixed(1)} s` : "turn duration";
    }
    case "stop_hook_summary":
      return `stop hooks ran (${num(line.hookCount) ?? arr(line.hookInfos).length})`;
    case "api_error": {
      const error = isObj(line.error) ? line.error : {};
      const status = num(error.status);
      const attempt = num(line.retryAttempt);
      const max = num(line.maxRetries);
      return `API error${status !== undefined ? ` ${status}` : ""}${attempt !== undefined ? `, retry ${attempt}${max !== undefined ? ` of ${max}` : ""}` : ""}`;
    }
    case "microcompact_boundary": {
      const meta = isObj(line.microcompactMetadata) ? line.microcompactMetadata : {};
      const ids = arr(meta.compactedToolIds).length;
      return `microcompaction: ${ids} tool outputs cleared${num(meta.tokensSaved) !== undefined ? `, ${num(meta.tokensSaved)} tokens saved` : ""}`;
    }
    default: {
      const content = str(line.content);
      return oneLine(`${subtype || "system"}${content ? `: ${content}` : ""}`);
    }
  }
}

function attachmentText(line: Obj): string {
  const a = isObj(line.attachment) ? line.attachment : {};
  const detail = str(a.hookName) ?? str(a.filename) ?? str(a.content) ?? "";
  return oneLine(`attachment: ${str(a.type) ?? "?"}${detail ? ` (${detail})` : ""}`);
}

/** The `event` name and text of a metadata line. */
export function describeClaudeEvent(line: Obj): { event: string; text: string } {
  const type = str(line.type) ?? "?";
  switch (type) {
    case "progress":
      return { event: "progress", text: oneLine(progressText(isObj(line.data) ? line.data : {})) };
    case "system":
      return { event: `system/${str(line.subtype) ?? "?"}`, text: systemText(line) };
    case "attachment":
      return { event: type, text: attachmentText(line) };
    case "file-history-snapshot": {
      const snapshot = isObj(line.snapshot) ? line.snapshot : {};
      const files = isObj(snapshot.trackedFileBackups) ? Object.keys(snapshot.trackedFileBackups).length : 0;
      return { event: type, text: `file snapshot (${files} files tracked)` };
    }
    case "summary":
      return { event: type, text: oneLine(`title: ${str(line.summary) ?? ""}`) };
    case "custom-title":
      return { event: type, text: oneLine(`title set to: ${str(line.customTitle) ?? ""}`) };
    case "ai-title":
      return { event: type, text: oneLine(`title: ${str(line.aiTitle) ?? ""}`) };
    case "agent-name":
      return { event: type, text: oneLine(`agent name: ${str(line.agentName) ?? ""}`) };
    case "last-prompt":
      return { event: type, text: oneLine(`last prompt: ${str(line.lastPrompt) ?? ""}`) };
    case "mode":
      return { event: type, text: `mode: ${str(line.mode) ?? "?"}` };
    case "permission-mode":
      return { event: type, text: `permission mode: ${str(line.permissionMode) ?? "?"}` };
    case "queue-operation":
      return { event: type, text: oneLine(`queue ${str(line.operation) ?? "?"}${str(line.content) ? `: ${str(line.content)}` : ""}`) };
    case "bridge-session":
      return { event: type, text: "remote-control bridge session" };
    default:
      return { event: type, text: `${type} line` };
  }
}
