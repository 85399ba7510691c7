/** The agents whose sessions Bonsai reads, by name (shell and features). */
import type { SessionSummary } from "@bonsai/ipc";

export type AgentKind = SessionSummary["agent"];

const NAMES: Record<AgentKind, string> = { pi: "pi", omp: "oh-my-pi", "claude-code": "Claude Code", codex: "Codex" };

export function agentName(agent: AgentKind): string {
  return NAMES[agent];
}
