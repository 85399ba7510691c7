/** The agents whose sessions Bonsai reads, by name (shell and features). */
import type { SessionSummaryDto } from "@bonsai/ipc";

export type AgentKind = SessionSummaryDto["agent"];

const NAMES: Record<AgentKind, string> = { pi: "pi", omp: "oh-my-pi", "claude-code": "Claude Code", codex: "Codex" };

export function agentName(agent: AgentKind): string {
  return NAMES[agent];
}
