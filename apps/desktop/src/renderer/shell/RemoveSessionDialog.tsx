/** Confirms removing a session from Bonsai, and says plainly that the agent's file is kept. */
import { useBonsai } from "../state/store";
import { Dialog } from "./Dialog";

export function RemoveSessionDialog() {
  const id = useBonsai((s) => s.removingSessionId);
  const session = useBonsai((s) => s.sessions.find((x) => x.id === s.removingSessionId));
  const setRemoving = useBonsai((s) => s.setRemoving);
  const removeSession = useBonsai((s) => s.removeSession);
  if (!id) return null;
  const close = () => setRemoving(null);
  return (
    <Dialog label="Remove the session from Bonsai" testId="remove-dialog" onClose={close}>
      <h3>Remove “{session?.title ?? id}” from Bonsai?</h3>
      <p>
        Bonsai forgets this session: its tree, the title given here and the originals of pruned outputs.{" "}
        <strong>The agent's session file is kept.</strong>{" "}
        {session?.sourcePath ? (
          <>
            <code>{session.sourcePath}</code> is not touched; importing it again brings the session back.
          </>
        ) : (
          "The file you imported is not touched."
        )}
      </p>
      <div className="bz-row">
        <button
          type="button"
          data-autofocus
          className="bz-danger"
          data-testid="remove-confirm"
          onClick={() => {
            close();
            void removeSession(id);
          }}
        >
          Remove from Bonsai
        </button>
        <button type="button" onClick={close} data-testid="remove-cancel">
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
