/**
 * "Continue in pi": the pi copy written in pi's own folder (the backend chooses the path, never the
 * window), imported, with the sentence that says where it went. (The HTML and pi exports are store
 * jobs: export-handlers.ts.)
 */
import { IpcError, type EventSink, type Handlers, type PiCopy } from "@bonsai/ipc";
import type { HostStore, PiCopy as StoredPiCopy, SessionSummary } from "@bonsai/store";
import { requireSession } from "./session-handlers";

const AGENT_NAMES: Record<SessionSummary["agent"], string> = { pi: "pi", omp: "oh-my-pi", "claude-code": "Claude Code", codex: "Codex" };

/** What the pi copy left out, as a clause ("" when nothing). */
function leftOut(omitted: StoredPiCopy["omitted"]): string {
  const parts: string[] = [];
  if (omitted.metadata > 0) parts.push(`${omitted.metadata} metadata lines`);
  if (omitted.developerMessages > 0) parts.push(`${omitted.developerMessages} Codex developer instructions`);
  if (omitted.orphanToolResults > 0) parts.push(`${omitted.orphanToolResults} tool results whose call is not in the file`);
  return parts.length > 0 ? ` Left out: ${parts.join(", ")}.` : "";
}

function piCopyResult(source: SessionSummary, copy: StoredPiCopy): PiCopy {
  const message = `Continued in pi: ${copy.entryCount} entries of this ${AGENT_NAMES[source.agent]} session written to ${copy.file}, where pi resumes it (pi --session ${copy.sessionId.slice(0, 8)}); the original was not changed.${leftOut(copy.omitted)}`;
  return { sessionId: copy.sessionId, file: copy.file, entryCount: copy.entryCount, omitted: copy.omitted, message };
}

export interface ForeignHandlerDeps {
  store: HostStore;
  emit: EventSink;
  /** where pi keeps its sessions (PI_CODING_AGENT_DIR, PI_CODING_AGENT_SESSION_DIR) */
  env: NodeJS.ProcessEnv;
}

export function foreignHandlers(deps: ForeignHandlerDeps): Pick<Handlers, "continueInPi"> {
  const { store } = deps;
  return {
    continueInPi: async ({ sessionId, leafId }) => {
      const source = requireSession(store, sessionId);
      if (leafId && !store.getEntry(sessionId, leafId)) throw new IpcError("not_found", `no entry ${leafId} in session ${sessionId}`);
      // read whole, written and imported: a store job (on the store worker in the app and `bonsai serve`)
      const copy = await deps.store.continueInPi(sessionId, { leafId, env: { ...deps.env } });
      deps.emit("sessionsChanged", {});
      return piCopyResult(source, copy);
    },
  };
}
