/**
 * What the explorer shows for a session Bonsai never writes (Claude Code, Codex): a notice with
 * "Continue in pi" above the tree, the same offer where an action would write (compaction,
 * pruning, branch summaries, labels, prompts), and, on a pi copy made here, where it was written.
 * On a team archive every session is such a read-only copy: the offer is a download of the path
 * to the leaf as a pi session, to continue on one's own machine.
 */
import { agentName } from "../../lib/agents";
import { exportOpenSession } from "../../shell/import";
import { useBonsai } from "../../state/store";

/**
 * Why nothing on this host can be changed (a team archive says so in getAppInfo: "read-only: a
 * team archive copy"); null when sessions may be changed. Controls that would change a session, a
 * setting or the host are then hidden, or disabled with this as their tooltip.
 */
export function useHostReadOnly(): string | null {
  return useBonsai((s) => s.appInfo?.readOnly ?? null);
}

/** Why the open session is read-only (null: it may be changed). */
export function useReadOnly(): string | null {
  return useBonsai((s) => s.session?.readOnly ?? null);
}

function useAgentName(): string {
  return agentName(useBonsai((s) => s.session?.agent ?? "pi"));
}

/** The open session's place in a team archive (undefined: a session of this machine). */
function useArchived(): { project: string; pushedBy: string } | undefined {
  return useBonsai((s) => s.session?.archive);
}

export function ContinueInPiButton() {
  const continuing = useBonsai((s) => s.continuing);
  const continueInPi = useBonsai((s) => s.continueInPi);
  const archived = useArchived();
  if (archived) {
    return (
      <button type="button" className="bz-primary" onClick={() => void exportOpenSession("pi")} data-testid="continue-in-pi" title="Download the path to the leaf as a pi session file, to continue it with pi on your machine">
        Download for pi
      </button>
    );
  }
  return (
    <button
      type="button"
      className="bz-primary"
      onClick={() => void continueInPi()}
      disabled={continuing}
      data-testid="continue-in-pi"
      title="Write the path to the leaf as a new pi session in pi's own sessions folder (where pi resumes it) and open it here"
    >
      {continuing ? "Writing the pi copy…" : "Continue in pi"}
    </button>
  );
}

/** Above the tree: the read-only notice, or where a pi copy made here was written. */
export function ForeignNotice() {
  const readOnly = useReadOnly();
  const archived = useArchived();
  const agent = useAgentName();
  const copy = useBonsai((s) => (s.openSessionId ? s.piCopies[s.openSessionId] : undefined));
  if (copy) {
    return (
      <div className="bz-foreign bz-foreign-copy" role="status" data-testid="pi-copy-notice">
        <span>
          A pi session continuing the original, written to <code data-testid="pi-copy-file">{copy.file}</code>; pi resumes it with{" "}
          <code>pi --session {copy.sessionId.slice(0, 8)}</code>. Compact, prune and branch it here like any pi session.
        </span>
      </div>
    );
  }
  if (readOnly === null) return null;
  if (archived) {
    return (
      <div className="bz-foreign" role="note" data-testid="read-only-notice">
        <span className="bz-agent-badge">archive</span>
        <span>
          Read-only: pushed to <strong>{archived.project}</strong> by <strong>{archived.pushedBy}</strong>. Read, search, replay and export it here; download it for pi to continue it on your machine.
        </span>
        <ContinueInPiButton />
      </div>
    );
  }
  return (
    <div className="bz-foreign" role="note" data-testid="read-only-notice">
      <span className="bz-agent-badge">{agent}</span>
      <span>
        Read-only: Bonsai never writes {agent} sessions. Compaction, pruning, branch summaries, labels and prompts work on a pi copy of the path to the leaf.
      </span>
      <ContinueInPiButton />
    </div>
  );
}

/** Where an action would write: what to do instead. `what` completes "… would change this session". */
export function ReadOnlyAction({ what }: { what: string }) {
  const agent = useAgentName();
  const archived = useArchived();
  if (archived) {
    return (
      <div className="bz-readonly-action" data-testid="read-only-action">
        <p>{what} would change this session, and a team archive is read-only. Download it for pi and continue it on your machine.</p>
        <ContinueInPiButton />
      </div>
    );
  }
  return (
    <div className="bz-readonly-action" data-testid="read-only-action">
      <p>
        {what} would change this {agent} session, and Bonsai never writes {agent} sessions. Continue in pi to do it on a pi copy (a new pi session with the path to the leaf; the original stays as it is).
      </p>
      <ContinueInPiButton />
    </div>
  );
}
