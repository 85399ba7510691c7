/** Undo the newest change made in Bonsai, or redo the last one undone (the backend says what it did). */
import { api, failureSentence } from "../../lib/api";
import { useBonsai } from "../../state/store";

async function step(which: "undo" | "redo"): Promise<void> {
  const s = useBonsai.getState();
  const sessionId = s.openSessionId;
  if (!sessionId || !s[which]) return;
  try {
    const out = await api()[which]({ sessionId });
    s.notify("info", out.message, sessionId);
    await useBonsai.getState().reloadSkeleton();
    if (out.leafId) useBonsai.getState().reveal(out.leafId, "inspect");
  } catch (err) {
    s.notify("error", failureSentence(err, which === "undo" ? "nothing was undone" : "nothing was redone"), sessionId);
  } finally {
    void useBonsai.getState().refreshUndo();
  }
}

export const undoLastChange = (): Promise<void> => step("undo");
export const redoLastUndone = (): Promise<void> => step("redo");
