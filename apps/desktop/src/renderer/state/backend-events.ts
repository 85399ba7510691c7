/** Wire the backend's pushed events into the store (called once at start-up). */
import { api, onConnectionStatus } from "../lib/api";
import { useBonsai } from "./store";

export function connectStoreToBackend(): () => void {
  const s = () => useBonsai.getState();
  const a = api();
  const mine = (sessionId: string) => sessionId === s().openSessionId;
  const offs = [
    onConnectionStatus((status) => {
      s().setConnection(status);
      if (status === "open") {
        void s().refreshSessions();
        // back after a restart of `bonsai serve`: what was open may have changed meanwhile
        if (s().openSessionId) void s().reloadSkeleton();
      }
    }),
    a.on("sessionsChanged", () => void s().refreshSessions()),
    a.on("sessionUpdated", (p) => {
      s().onSessionUpdated(p);
      if (mine(p.sessionId)) void s().refreshUndo();
    }),
    a.on("importProgress", (p) => s().onImportProgress(p)),
    // the backend words every user-facing outcome (automatic compactions included) exactly once
    a.on("notification", (p) => s().notify(p.level, p.message, p.sessionId)),
    a.on("hookError", (p) => s().notify("error", `The hook ${p.hook}${p.file ? ` (${p.file})` : ""} failed: ${p.message}`)),
    a.on("turnDelta", (p) => {
      if (mine(p.sessionId) && p.kind === "text") useBonsai.setState((st) => ({ streaming: st.streaming + p.delta }));
    }),
    a.on("compactionStart", (p) => {
      if (mine(p.sessionId) && p.reason !== "manual") s().setWork({ autoCompaction: p.reason });
    }),
    a.on("compactionEnd", (p) => {
      if (mine(p.sessionId) && p.reason !== "manual") s().setWork({ autoCompaction: null });
    }),
    followContextPanels(),
    // the amnesia report and its scores, once shown, follow changes of the open session's tree
    useBonsai.subscribe((st, prev) => {
      const open = st.openSessionId;
      if (st.skeleton === prev.skeleton || !st.skeleton || !open) return;
      if (st.amnesia.sessionId === open && st.amnesia.status === "ready") void st.loadAmnesia(open, true);
      if (st.amnesiaScores.sessionId === open && st.amnesiaScores.status === "ready") void st.loadAmnesiaScores(open, true);
    }),
  ];
  void a.getAppInfo().then((info) => s().setAppInfo(info), () => undefined);
  void s().refreshSessions();
  void s().loadSettings();
  return () => offs.forEach((off) => off());
}

/**
 * What the model sees (a whole context: ~0.5 MB for a 10,000-entry session) is read only while a
 * panel shows it: "What the model sees" for the selected node (the leaf when nothing is selected),
 * Compact for the leaf. Again when the tree or the selection changes, a moment after the last
 * change (arrow keys walk the tree quickly).
 */
function followContextPanels(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let loaded: { skeleton: unknown; target: string | null } | null = null;
  const off = useBonsai.subscribe((s, prev) => {
    if (!s.skeleton || (s.panel !== "context" && s.panel !== "compact")) return;
    const target = contextTarget(s);
    if (loaded && loaded.skeleton === s.skeleton && loaded.target === target) return;
    loaded = { skeleton: s.skeleton, target };
    clearTimeout(timer);
    // a new tree or a panel just opened: at once; a selection that moves: once it rests
    const now = s.panel !== prev.panel || s.skeleton !== prev.skeleton;
    timer = setTimeout(() => void useBonsai.getState().loadContext(target), now ? 0 : 120);
  });
  return () => {
    clearTimeout(timer);
    off();
  };
}

/** The entry "What the model sees" shows: the selected entry (a segment's last), else the leaf. */
export function contextTarget(s: Pick<ReturnType<typeof useBonsai.getState>, "panel" | "selectedId" | "graph" | "skeleton">): string | null {
  const leaf = s.skeleton?.leafId ?? null;
  if (s.panel !== "context" || !s.selectedId || !s.graph) return leaf;
  const v = s.graph.flowIndex.get(s.selectedId);
  const node = v === undefined ? undefined : s.graph.nodes[v];
  if (!node) return leaf;
  return node.type === "segment" ? node.data.lastId : node.id;
}
