/** One sentence for each Codex line that is not part of what the model sees. */
import { isObj, num, oneLine, str, type Obj } from "../values";

function eventText(p: Obj): string {
  const type = str(p.type) ?? "?";
  switch (type) {
    case "token_count": {
      const info = isObj(p.info) ? p.info : undefined;
      const last = info && isObj(info.last_token_usage) ? info.last_token_usage : undefined;
      if (!last) return "rate limits update";
      return `tokens: ${num(last.input_tokens) ?? 0} in (${num(last.cached_input_tokens) ?? 0} cached), ${num(last.output_tokens) ?? 0} out`;
    }
    case "user_message":
      return oneLine(`user: ${str(p.message) ?? ""}`);
    case "agent_message":
      return oneLine(`assistant: ${str(p.message) ?? ""}`);
    case "agent_reasoning":
      return oneLine(`reasoning: ${str(p.text) ?? ""}`);
    case "task_started":
      return "turn started";
    case "task_complete":
      return "turn complete";
    case "turn_aborted":
      return oneLine(`turn aborted${str(p.reason) ? ` (${str(p.reason)})` : ""}`);
    case "context_compacted":
      return "context compacted";
    case "thread_rolled_back":
      return `rolled back ${num(p.num_turns) ?? 0} turn(s)`;
    case "exec_command_end":
      return `command finished (exit ${num(p.exit_code) ?? "?"})`;
    case "patch_apply_end":
      return `patch applied${p.success === false ? " (failed)" : ""}`;
    case "web_search_end":
      return oneLine(`web search: ${str(p.query) ?? ""}`);
    case "mcp_tool_call_end":
      return "MCP tool call finished";
    case "thread_settings_applied":
      return "thread settings applied";
    default:
      return type.replace(/_/g, " ");
  }
}

function itemText(p: Obj): string {
  const type = str(p.type) ?? "?";
  switch (type) {
    case "web_search_call": {
      const action = isObj(p.action) ? p.action : {};
      return oneLine(`web search: ${str(action.query) ?? ""}`);
    }
    case "compaction":
    case "compaction_summary":
      return "compaction summary (opaque: encrypted by the provider)";
    default:
      return `${type.replace(/_/g, " ")} (no pi shape: kept as metadata)`;
  }
}

/** The `event` name and text of a metadata line. */
export function describeCodexLine(line: Obj): { event: string; text: string } {
  const type = str(line.type) ?? "?";
  const p = isObj(line.payload) ? line.payload : {};
  switch (type) {
    case "event_msg":
      return { event: `event_msg/${str(p.type) ?? "?"}`, text: eventText(p) };
    case "response_item":
      return { event: `response_item/${str(p.type) ?? "?"}`, text: itemText(p) };
    case "session_meta":
      return { event: type, text: oneLine(`session ${str(p.id) ?? ""} (${str(p.originator) ?? "codex"} ${str(p.cli_version) ?? ""})`) };
    case "turn_context":
      return { event: type, text: oneLine(`turn: ${str(p.model) ?? "?"}${str(p.effort) ? `, effort ${str(p.effort)}` : ""}`) };
    case "world_state":
      return { event: type, text: p.full === true ? "workspace state (full)" : "workspace state (update)" };
    default:
      return { event: type, text: `${type} line` };
  }
}
