/** Sessions Bonsai never writes: Claude Code transcripts and Codex rollouts. */
import { registerWireErrors } from "@bonsai/core";
import { StoreError } from "../session-store";

export type ForeignFormat = "claude-code" | "codex";

const NAMES: Record<ForeignFormat, string> = { "claude-code": "Claude Code", codex: "Codex" };

export function isForeignFormat(format: string): format is ForeignFormat {
  return format === "claude-code" || format === "codex";
}

export function agentDisplayName(format: ForeignFormat): string {
  return NAMES[format];
}

/** Why a session of this source format is never written (null: it may be). */
export function readOnlyReason(format: string): string | null {
  if (!isForeignFormat(format)) return null;
  return `Bonsai never writes ${NAMES[format]} sessions: continue it in pi to compact, prune, branch with a summary, label or prompt it`;
}

/** A write was asked of a session Bonsai never writes: nothing was changed. */
export class ReadOnlySessionError extends StoreError {
  constructor(
    readonly sessionId: string,
    readonly format: ForeignFormat,
  ) {
    super(`session ${sessionId} is a ${NAMES[format]} session, which Bonsai never writes: continue it in pi ("Continue in pi" in the app, or bonsai export ${sessionId} --format pi) to change it`, "read_only");
    this.name = "ReadOnlySessionError";
  }
}
registerWireErrors(ReadOnlySessionError);
