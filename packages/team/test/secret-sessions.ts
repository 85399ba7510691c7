/**
 * Session files of each agent's format with one piece of text `t` in every place a session holds
 * text: the header's cwd, user text, assistant text, tool arguments as values and as keys, file
 * paths, tool output, compaction and branch summaries, labels, session names and titles. They are
 * valid files the store imports (shapes as in ../shared/fixtures/real).
 */
import { randomUUID } from "node:crypto";

const AT = "2026-03-20T17:07:35.000Z";

function jsonl(lines: readonly object[]): string {
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

/** tool arguments with the text as a value, as a key and inside a path */
function args(t: string): Record<string, unknown> {
  return { command: t, [t]: "value", path: `/repo/${t}/file.txt`, nested: { [t]: [t] } };
}

export function piSession(id: string, t: string): string {
  const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const entry = (n: number, parent: number | null, body: object): object => ({ id: `e000000${n}`, parentId: parent === null ? null : `e000000${parent}`, timestamp: AT, ...body });
  return jsonl([
    { type: "session", version: 3, id, timestamp: AT, cwd: `/home/dev/${t}`, title: t, parentSession: `/home/dev/.pi/sessions/${t}.jsonl` },
    entry(1, null, { type: "message", message: { role: "user", content: `please look at ${t}`, timestamp: 1 } }),
    entry(2, 1, {
      type: "message",
      message: { role: "assistant", content: [{ type: "thinking", thinking: t }, { type: "text", text: t }, { type: "toolCall", id: "call_1", name: "bash", arguments: args(t) }], api: "anthropic-messages", provider: "anthropic", model: "claude-opus-4-6", usage, stopReason: "toolUse", timestamp: 2 },
    }),
    entry(3, 2, { type: "message", message: { role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text: t }], details: { [t]: t }, isError: false, timestamp: 3 } }),
    entry(4, 3, { type: "compaction", summary: `## Goal\n${t}`, firstKeptEntryId: "e0000003", tokensBefore: 100, details: { readFiles: [`/repo/${t}`], modifiedFiles: [t] } }),
    entry(5, 4, { type: "branch_summary", fromId: "e0000002", summary: t, details: { readFiles: [t], modifiedFiles: [] } }),
    entry(6, 5, { type: "label", targetId: "e0000002", label: t }),
    entry(7, 6, { type: "session_info", name: t }),
    entry(8, 7, { type: "custom", customType: "extension-state", data: { [t]: t } }),
    entry(9, 8, { type: "custom_message", customType: "lint", content: t, display: true, details: { [t]: t } }),
  ]);
}

export function claudeSession(id: string, t: string): string {
  const base = { isSidechain: false, userType: "external", cwd: `/home/dev/${t}`, sessionId: id, version: "2.1.80", gitBranch: "main", timestamp: AT };
  const u = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  return jsonl([
    { ...base, parentUuid: null, type: "user", message: { role: "user", content: `please look at ${t}` }, uuid: u[0] },
    {
      ...base,
      parentUuid: u[0],
      type: "assistant",
      message: { model: "claude-opus-4-6", id: "msg_01", type: "message", role: "assistant", content: [{ type: "thinking", thinking: t, signature: "sig" }, { type: "text", text: t }, { type: "tool_use", id: "toolu_01", name: "Bash", input: args(t) }], stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
      uuid: u[1],
    },
    { ...base, parentUuid: u[1], type: "user", message: { role: "user", content: [{ tool_use_id: "toolu_01", type: "tool_result", content: t }] }, toolUseResult: { stdout: t, stderr: "", [t]: t }, uuid: u[2] },
    { ...base, parentUuid: null, logicalParentUuid: u[2], type: "system", subtype: "compact_boundary", content: "Conversation compacted", compactMetadata: { trigger: "auto", preTokens: 100 }, level: "info", isMeta: false, uuid: u[3] },
    { ...base, parentUuid: u[3], type: "user", isCompactSummary: true, isVisibleInTranscriptOnly: true, message: { role: "user", content: `This session is being continued from a previous conversation.\n${t}` }, uuid: u[4] },
    { type: "summary", summary: t, leafUuid: u[4] },
    { type: "custom-title", customTitle: t, sessionId: id },
    { type: "agent-name", agentName: t, sessionId: id },
    { type: "ai-title", aiTitle: t, sessionId: id },
  ]);
}

export function codexSession(id: string, t: string): string {
  const line = (type: string, payload: object): object => ({ timestamp: AT, type, payload });
  return jsonl([
    line("session_meta", { id, timestamp: AT, cwd: `/home/dev/${t}`, originator: "codex_cli_rs", cli_version: "0.140.0", model_provider: "openai", git: { branch: "main", repository_url: `https://example.com/${t}` } }),
    line("turn_context", { cwd: `/home/dev/${t}`, model: "gpt-5.5", approval_policy: "on-request" }),
    line("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: `please look at ${t}` }] }),
    line("event_msg", { type: "user_message", message: t, images: [] }),
    line("response_item", { type: "reasoning", summary: [{ type: "summary_text", text: t }] }),
    line("response_item", { type: "function_call", name: "exec_command", arguments: JSON.stringify(args(t)), call_id: "call_1" }),
    line("response_item", { type: "function_call_output", call_id: "call_1", output: t }),
    line("response_item", { type: "custom_tool_call", status: "completed", call_id: "call_2", name: "apply_patch", input: `*** Begin Patch\n*** Add File: /repo/${t}\n+${t}\n*** End Patch` }),
    line("response_item", { type: "custom_tool_call_output", call_id: "call_2", output: t }),
    line("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: t }] }),
    line("compacted", { message: t, replacement_history: [{ type: "message", role: "user", content: [{ type: "input_text", text: t }] }] }),
    line("event_msg", { type: "thread_name_updated", thread_name: t }),
    line("event_msg", { type: "exec_command_end", call_id: "call_1", command: ["/bin/bash", "-lc", t], cwd: `/repo/${t}`, aggregated_output: t, exit_code: 0 }),
  ]);
}
