/**
 * The explorer's state: one zustand store built from typed slices. The tree layout (toFlow) runs
 * in the actions, when the skeleton, the leaf or the expanded segments change, never during a
 * render. Components read it through narrow selectors. The shell's store (state/) owns the open
 * session, its skeleton, settings and notifications; this store owns what the explorer adds.
 */
import { create } from "zustand";
import type { TreeSkeleton } from "@bonsai/core";
import type { CompactionOutcome, CompactionPlan, ContextPreview, EntryDetail, PrunePlan, SearchHit } from "@bonsai/ipc";
import { api, errorMessage } from "../lib/api";
import { useBonsai } from "../state/store";
import { hiddenIn, toFlow } from "./tree/layout";
import type { FlowGraph } from "./tree/layout";
import { indexTree } from "./tree/model";
import type { TreeIndex } from "./tree/model";
// sessions of other agents (read-only): Continue in pi
import { createForeignSlice, type ForeignSlice } from "./foreign/slice";

export type PanelName = "inspect" | "context" | "compact" | "prune" | "amnesia";

export interface FocusRequest {
  /** flow node id to center, or "fit" for the whole tree */
  target: string;
  seq: number;
}

export type JobState =
  | { kind: "idle" }
  | { kind: "running"; what: "compaction" | "dryRun" | "branchSummary" | "prompt"; requestId: string; startedAt: number }
  | { kind: "failed"; message: string };

interface SessionSlice {
  sessionId: string | null;
  title: string;
  skeleton: TreeSkeleton | null;
  index: TreeIndex | null;
  graph: FlowGraph | null;
  expanded: ReadonlySet<string>;
  /** ms spent in the last toFlow (shown in the status bar) */
  layoutMs: number;
  follow: boolean;
  /** an entry to reveal once the shell has opened its session (search hits in other sessions) */
  pendingReveal: { sessionId: string; entryId: string } | null;
}

interface SelectionSlice {
  /** selected flow node (an entry id or a segment key) */
  selectedId: string | null;
  panel: PanelName;
  focus: FocusRequest | null;
  details: Record<string, EntryDetail>;
  detailError: string | null;
}

interface WorkSlice {
  context: ContextPreview | null;
  contextError: string | null;
  plan: CompactionPlan | null;
  planError: string | null;
  dryRun: CompactionOutcome | null;
  job: JobState;
  prunePlan: PrunePlan | null;
  /** target of the switch-branch dialog (entry id), null when closed */
  switchTarget: string | null;
  /** text of the reply streaming in */
  streaming: string;
  /** text put into the composer (the prompt of a user message navigated to, to re-send it differently) */
  composerDraft: string | null;
  /** an automatic compaction running on the open session */
  autoCompaction: "threshold" | "overflow" | null;
}

interface ChromeSlice {
  prefsOpen: boolean;
  searchOpen: boolean;
  searchHits: SearchHit[];
  searchError: string | null;
}

export interface ExplorerActions {
  /** the shell delivered a (new) skeleton for the open session: relayout */
  setSkeleton(sessionId: string, title: string, skeleton: TreeSkeleton): void;
  /** ask the shell to refetch the skeleton (it calls setSkeleton through the session view) */
  reloadSkeleton(): Promise<void>;
  toggleSegment(segKey: string): void;
  select(flowId: string | null, panel?: PanelName): void;
  /** make an entry visible (expanding its segment), select and center it */
  reveal(entryId: string, panel?: PanelName): void;
  /** open another session and reveal an entry in it once its tree is drawn */
  jumpTo(sessionId: string, entryId: string): void;
  requestFocus(target: string): void;
  setPanel(panel: PanelName): void;
  loadDetail(entryId: string, force?: boolean): Promise<void>;
  loadContext(): Promise<void>;
  notify(level: "info" | "warning" | "error", message: string): void;
  setFollow(on: boolean): void;
  setState(patch: Partial<ExplorerState>): void;
}

export type ExplorerState = SessionSlice & SelectionSlice & WorkSlice & ChromeSlice & ForeignSlice & ExplorerActions;

let focusSeq = 0;

function layout(index: TreeIndex, leafId: string | null, expanded: ReadonlySet<string>): { graph: FlowGraph; layoutMs: number } {
  const t0 = performance.now();
  const graph = toFlow(index, { leafId, expanded });
  return { graph, layoutMs: performance.now() - t0 };
}

export { errorMessage };

const initialSession: SessionSlice & SelectionSlice & WorkSlice = {
  sessionId: null,
  title: "",
  skeleton: null,
  index: null,
  graph: null,
  expanded: new Set(),
  layoutMs: 0,
  follow: true,
  pendingReveal: null,
  selectedId: null,
  panel: "inspect",
  focus: null,
  details: {},
  detailError: null,
  context: null,
  contextError: null,
  plan: null,
  planError: null,
  dryRun: null,
  job: { kind: "idle" },
  prunePlan: null,
  switchTarget: null,
  streaming: "",
  composerDraft: null,
  autoCompaction: null,
};

export const useExplorer = create<ExplorerState>()((set, get) => ({
  ...initialSession,
  prefsOpen: false,
  searchOpen: false,
  searchHits: [],
  searchError: null,
  ...createForeignSlice(set, get),

  setSkeleton(sessionId, title, skeleton) {
    const prev = get();
    const same = prev.sessionId === sessionId;
    if (same && prev.skeleton === skeleton) return;
    const index = indexTree(skeleton.nodes);
    const expanded = same ? prev.expanded : new Set<string>();
    const { graph, layoutMs } = layout(index, skeleton.leafId, expanded);
    if (!same) {
      // a small tree is shown whole; a large one opens on its leaf at a readable zoom
      const target = graph.nodes.length <= 60 || !skeleton.leafId ? "fit" : skeleton.leafId;
      set({ ...initialSession, follow: prev.follow, pendingReveal: prev.pendingReveal, sessionId, title, skeleton, index, graph, layoutMs, focus: { target, seq: ++focusSeq } });
    } else {
      // entries changed on the main side (appends, pruning, labels): cached details may be stale
      const leafMoved = prev.skeleton?.leafId !== skeleton.leafId;
      set({ title, skeleton, index, graph, layoutMs, details: {} });
      if (leafMoved && skeleton.leafId && prev.follow) set({ focus: { target: skeleton.leafId, seq: ++focusSeq } });
      const sel = get().selectedId;
      if (sel && !sel.startsWith("seg:")) void get().loadDetail(sel, true);
    }
    const pending = get().pendingReveal;
    if (pending && pending.sessionId === sessionId) {
      set({ pendingReveal: null });
      get().reveal(pending.entryId, "inspect");
    }
  },

  async reloadSkeleton() {
    await useBonsai.getState().reloadSkeleton();
  },

  toggleSegment(segKey) {
    const { index, skeleton, expanded } = get();
    if (!index || !skeleton) return;
    const next = new Set(expanded);
    if (next.has(segKey)) next.delete(segKey);
    else next.add(segKey);
    const { graph, layoutMs } = layout(index, skeleton.leafId, next);
    // a segment that opened selects its first entry; one that closed selects itself
    const first = segKey.slice(4);
    const sel = get().selectedId;
    const selectedId = sel && graph.flowIndex.has(sel) ? sel : graph.flowIndex.has(first) ? first : segKey;
    set({ expanded: next, graph, layoutMs, selectedId });
  },

  select(flowId, panel) {
    set({ selectedId: flowId, ...(panel ? { panel } : {}) });
    if (flowId && !flowId.startsWith("seg:")) void get().loadDetail(flowId);
  },

  reveal(entryId, panel) {
    const { index, graph, skeleton, expanded } = get();
    if (!index || !graph || !skeleton) return;
    const seg = hiddenIn(graph, index, entryId);
    if (seg) {
      const next = new Set(expanded);
      next.add(seg);
      const { graph: g, layoutMs } = layout(index, skeleton.leafId, next);
      set({ expanded: next, graph: g, layoutMs });
    }
    if (!get().graph?.flowIndex.has(entryId)) {
      get().notify("warning", `Entry ${entryId} is not in this session's tree.`);
      return;
    }
    get().select(entryId, panel);
    set({ focus: { target: entryId, seq: ++focusSeq } });
  },

  jumpTo(sessionId, entryId) {
    if (sessionId === get().sessionId) {
      get().reveal(entryId, "inspect");
      return;
    }
    set({ pendingReveal: { sessionId, entryId } });
    void useBonsai.getState().openSession(sessionId);
  },

  requestFocus(target) {
    set({ focus: { target, seq: ++focusSeq } });
  },

  setPanel(panel) {
    set({ panel });
  },

  async loadDetail(entryId, force) {
    const { sessionId, details } = get();
    if (!sessionId) return;
    if (details[entryId] && !force) return;
    try {
      const detail = await api().getEntry({ sessionId, entryId });
      if (get().sessionId !== sessionId) return;
      set({ details: { ...get().details, [entryId]: detail }, detailError: null });
    } catch (err) {
      set({ detailError: errorMessage(err) });
    }
  },

  async loadContext() {
    const { sessionId, skeleton } = get();
    if (!sessionId || !skeleton) return;
    try {
      const context = await api().getContextPreview({ sessionId, leafId: skeleton.leafId });
      if (get().sessionId === sessionId && get().skeleton === skeleton) set({ context, contextError: null });
    } catch (err) {
      set({ contextError: errorMessage(err) });
    }
  },

  notify(level, message) {
    useBonsai.getState().notify(level, message, get().sessionId);
  },

  setFollow(on) {
    set({ follow: on });
  },

  setState(patch) {
    set(patch);
  },
}));

/**
 * The context preview (a whole context, ~0.5 MB for a 10,000-entry session) is read only for the
 * panels that show it: when one of them opens, and again when the tree changes under it. Opening a
 * session to look at its tree does not compute it.
 */
const PANELS_WITH_CONTEXT: ReadonlySet<PanelName> = new Set<PanelName>(["context", "compact"]);
useExplorer.subscribe((s, prev) => {
  if (!s.skeleton || !PANELS_WITH_CONTEXT.has(s.panel)) return;
  if (s.panel !== prev.panel || s.skeleton !== prev.skeleton || s.sessionId !== prev.sessionId) void s.loadContext();
});

/** Unique id for a long-running call, echoed in its events. */
export function newRequestId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
