/** Undo the last compaction, branch switch or label made in Bonsai (the backend says what it does). */
import { api, failureSentence } from "../../lib/api";
import { useBonsai } from "../../state/store";

export async function undoLastChange(): Promise<void> {
  const s = useBonsai.getState();
  const sessionId = s.openSessionId;
  if (!sessionId || !s.undo) return;
  try {
    const out = await api().undo({ sessionId });
    s.notify("info", out.message, sessionId);
    await useBonsai.getState().reloadSkeleton();
    if (out.leafId) useBonsai.getState().reveal(out.leafId, "inspect");
  } catch (err) {
    s.notify("error", failureSentence(err, "nothing was undone"), sessionId);
  } finally {
    void useBonsai.getState().refreshUndo();
  }
}
