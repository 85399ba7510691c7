/**
 * The open session: its summary and tree skeleton, the tree drawn from it, and the selection.
 * The layout (toFlow) runs here, in the actions that change the skeleton, the leaf or the expanded
 * segments — never in a render. Components read it through narrow selectors.
 */
import { unpackSkeleton, type TreeSkeleton } from "@bonsai/core";
import type { EntryDetail, EventPayload, SessionSummaryDto } from "@bonsai/ipc";
import { afterPaint } from "../lib/after-paint";
import { api, errorMessage } from "../lib/api";
import { hiddenIn, toFlow, type FlowGraph, type FlowNode } from "../features/tree/layout";
import { treeContextTokens, treeDisplayTokens } from "../features/tree/context-tokens";
import { indexTree, type TreeIndex } from "../features/tree/model";
import { joinUsage, usageAfter, type HeldUsage } from "../features/tree/usage-points";
import type { PanelName } from "./ui-slice";
import type { Slice } from "./types";

export interface FocusRequest {
  /** flow node id to center, or "fit" for the whole tree */
  target: string;
  seq: number;
}

export interface SessionSlice {
  openSessionId: string | null;
  session: SessionSummaryDto | null;
  skeleton: TreeSkeleton | null;
  sessionLoading: boolean;
  sessionError: string | null;
  /** the skeleton's parent/child structure and the flow graph drawn from it */
  index: TreeIndex | null;
  graph: FlowGraph | null;
  /**
   * what the model sees from each entry (by index position): the display figure every panel shows
   * (core displayTokensOfTree over the estimates and the replies' usage), computed just after the
   * tree is drawn
   */
  treeTokens: Float64Array | null;
  /** the estimate of the messages the model sees from each entry (core contextTokensOfTree), shown second */
  treeEstimates: Float64Array | null;
  expanded: ReadonlySet<string>;
  /** ms spent in the last toFlow (shown in the status bar) */
  layoutMs: number;
  /** center the tree on the leaf when an agent appends entries */
  follow: boolean;
  /** an entry to reveal once its session is open (search hits in other sessions) */
  pendingReveal: { sessionId: string; entryId: string; panel: PanelName } | null;
  /** selected flow node (an entry id or a segment key) */
  selectedId: string | null;
  focus: FocusRequest | null;
  details: Record<string, EntryDetail>;
  detailError: string | null;

  openSession(sessionId: string): Promise<void>;
  closeSession(): void;
  /** refetch the open session's skeleton (after the leaf moved, pruning, labels, ...) */
  reloadSkeleton(): Promise<void>;
  /** after entries were added: fetch only the nodes after those held (the whole skeleton if need be) */
  extendSkeleton(): Promise<void>;
  onSessionUpdated(p: EventPayload<"sessionUpdated">): void;
  toggleSegment(segKey: string): void;
  /** select a flow node (the inspector follows at once); optionally show a side panel tab */
  select(flowId: string | null, panel?: PanelName): void;
  /** make an entry visible (expanding its segment), select and center it */
  reveal(entryId: string, panel?: PanelName): void;
  /** open another session and reveal an entry in it once its tree is drawn, with `panel` (default the inspector) beside it */
  jumpTo(sessionId: string, entryId: string, panel?: PanelName): void;
  requestFocus(target: string): void;
  setFollow(on: boolean): void;
  loadDetail(entryId: string, force?: boolean): Promise<void>;
}

let focusSeq = 0;


function layout(index: TreeIndex, leafId: string | null, expanded: ReadonlySet<string>): { graph: FlowGraph; layoutMs: number } {
  const t0 = performance.now();
  const graph = toFlow(index, { leafId, expanded });
  return { graph, layoutMs: performance.now() - t0 };
}

/** the entry whose preview a flow node shows (a segment: its first user message's, else its first entry's) */
function previewSource(node: FlowNode): string {
  return node.type === "entry" ? node.id : node.data.firstId;
}

/**
 * The graph with every flow node's preview as the skeleton now has it: nodes whose preview came
 * later get new data (React Flow redraws those only); the same graph when none changed.
 */
function withPreviews(graph: FlowGraph, index: TreeIndex): FlowGraph {
  let nodes: FlowNode[] | null = null;
  for (let v = 0; v < graph.nodes.length; v++) {
    const node = graph.nodes[v]!;
    if (node.type === "segment" && node.data.users > 0) continue; // a user message's preview always comes with the skeleton
    const i = index.byId.get(previewSource(node));
    const preview = i === undefined ? undefined : index.nodes[i]!.preview;
    if (preview === undefined || preview === node.data.preview) continue;
    nodes ??= graph.nodes.slice();
    nodes[v] = node.type === "entry" ? { ...node, data: { ...node.data, preview } } : { ...node, data: { ...node.data, preview } };
  }
  return nodes ? { ...graph, nodes } : graph;
}

/** the tree shows a few hundred timestamps of a skeleton: each is made when read (not 100,000 on open) */
const UNPACK = { timestamps: "lazy" } as const;

/** previews asked for at once (the contract's limit) */
const PREVIEW_BATCH = 500;

/** trees of up to this many drawn nodes may open fitted (when that is readable) */
const FIT_ON_OPEN_MAX_NODES = 60;

export const createSessionSlice: Slice<SessionSlice> = (set, get) => {
  /** the replies' usage held for the open session's tree (features/tree/usage-points.ts) */
  let heldUsage: HeldUsage | null = null;

  /**
   * The skeleton of an open answer carries the previews of the entries drawn on their own only
   * (`previewLater` marks the others): the ones the tree draws now and lacks are fetched and put
   * into the skeleton's nodes and the drawn graph.
   */
  const fillPreviews = async (): Promise<void> => {
    const { openSessionId: sessionId, skeleton, index, graph } = get();
    if (!sessionId || !skeleton || !index || !graph) return;
    const wanted: number[] = [];
    for (const node of graph.nodes) {
      if (node.type === "segment" && node.data.users > 0) continue;
      const i = index.byId.get(previewSource(node));
      if (i !== undefined && index.nodes[i]!.previewLater) wanted.push(i);
    }
    try {
      for (let k = 0; k < wanted.length; k += PREVIEW_BATCH) {
        const batch = wanted.slice(k, k + PREVIEW_BATCH);
        const { previews } = await api().getPreviews({ sessionId, entryIds: batch.map((i) => index.nodes[i]!.id) });
        if (get().skeleton !== skeleton) return; // a newer skeleton fills its own
        batch.forEach((i, b) => {
          const node = index.nodes[i]!;
          node.preview = previews[b] ?? "";
          delete node.previewLater;
        });
        const now = get().graph;
        if (now) set({ graph: withPreviews(now, index) });
      }
    } catch (err) {
      if (get().openSessionId === sessionId) get().notify("error", `Could not read the previews of the tree: ${errorMessage(err)}`, sessionId);
    }
  };

  /** the open session got a (new) skeleton: relayout, keep what still applies */
  const applySkeleton = (skeleton: TreeSkeleton, fresh: boolean): void => {
    const prev = get();
    const index = indexTree(skeleton.nodes);
    if (fresh) performance.mark("bonsai:open:indexed");
    const expanded = fresh ? new Set<string>() : prev.expanded;
    const { graph, layoutMs } = layout(index, skeleton.leafId, expanded);
    if (fresh) performance.mark("bonsai:open:laidout");
    if (fresh) {
      // a small tree is shown whole when it fits readably (viewport.ts "open"); a large one opens on its leaf
      const target = graph.nodes.length <= FIT_ON_OPEN_MAX_NODES || !skeleton.leafId ? "open" : skeleton.leafId;
      set({ skeleton, index, graph, layoutMs, expanded, selectedId: null, details: {}, detailError: null, focus: { target, seq: ++focusSeq } });
    } else {
      // entries changed on the main side (appends, pruning, labels): cached details may be stale
      const leafMoved = prev.skeleton?.leafId !== skeleton.leafId;
      const sel = prev.selectedId;
      const selectedId = sel && graph.flowIndex.has(sel) ? sel : null;
      set({ skeleton, index, graph, layoutMs, details: {}, selectedId });
      if (leafMoved && skeleton.leafId && prev.follow) set({ focus: { target: skeleton.leafId, seq: ++focusSeq } });
      if (selectedId && !selectedId.startsWith("seg:")) void get().loadDetail(selectedId, true);
    }
    // the figures of every node: one pass over the tree, kept off the frame that first draws it; the
    // replies' usage of a changed tree is asked for the nodes after those held only
    set({ treeTokens: null, treeEstimates: null });
    if (fresh) heldUsage = null;
    afterPaint(() => {
      if (get().index !== index) return;
      const estimates = treeContextTokens(index);
      const { sessionId } = skeleton;
      const held = heldUsage;
      const after = usageAfter(held, sessionId);
      api()
        .getUsagePoints(after ? { sessionId, after } : { sessionId })
        .then(
          (answer) => {
            const usage = joinUsage(held, sessionId, answer);
            if (usage) heldUsage = { sessionId, points: usage };
            if (get().index === index) set({ treeTokens: usage ? treeDisplayTokens(index, estimates, usage) : estimates, treeEstimates: estimates });
          },
          // without the replies' usage (an older backend, a failed read) the estimate stands, as the panels say then
          () => (get().index === index ? set({ treeTokens: estimates, treeEstimates: estimates }) : undefined),
        );
    });
    void fillPreviews();
    const pending = get().pendingReveal;
    if (pending && pending.sessionId === skeleton.sessionId) {
      set({ pendingReveal: null });
      get().reveal(pending.entryId, pending.panel);
    }
  };

  return {
    openSessionId: null,
    session: null,
    skeleton: null,
    sessionLoading: false,
    sessionError: null,
    index: null,
    graph: null,
    treeTokens: null,
    treeEstimates: null,
    expanded: new Set(),
    layoutMs: 0,
    follow: true,
    pendingReveal: null,
    selectedId: null,
    focus: null,
    details: {},
    detailError: null,

    async openSession(sessionId) {
      // the explorer and team-open benchmarks read these marks (request sent -> answer received -> skeleton unpacked -> indexed -> laid out)
      performance.mark("bonsai:open:start");
      get().scopeNotifications(sessionId);
      get().resetWork();
      set({ openSessionId: sessionId, session: null, skeleton: null, index: null, graph: null, sessionLoading: true, sessionError: null, selectedId: null, details: {} });
      try {
        const { session, skeleton } = await api().openSession({ sessionId });
        if (get().openSessionId !== sessionId) return; // another session was opened meanwhile
        performance.mark("bonsai:open:received");
        const unpacked = unpackSkeleton(skeleton, UNPACK);
        performance.mark("bonsai:open:answer");
        set({ session, sessionLoading: false });
        applySkeleton(unpacked, true);
      } catch (err) {
        if (get().openSessionId !== sessionId) return;
        set({ sessionLoading: false, sessionError: errorMessage(err) });
      }
    },

    closeSession() {
      get().scopeNotifications(null);
      get().resetWork();
      set({ openSessionId: null, session: null, skeleton: null, index: null, graph: null, sessionError: null, selectedId: null, details: {} });
    },

    async reloadSkeleton() {
      const sessionId = get().openSessionId;
      if (!sessionId) return;
      try {
        const skeleton = await api().getSkeleton({ sessionId });
        if (get().openSessionId === sessionId) applySkeleton(unpackSkeleton(skeleton, UNPACK), false);
      } catch (err) {
        get().notify("error", `Could not reload the session: ${errorMessage(err)}`, sessionId);
      }
    },

    async extendSkeleton() {
      const sessionId = get().openSessionId;
      const held = get().skeleton;
      if (!sessionId || !held || held.sessionId !== sessionId) return get().reloadSkeleton();
      try {
        const { from, skeleton } = await api().getSkeletonTail({ sessionId, count: held.nodes.length, lastId: held.nodes.at(-1)?.id ?? null });
        if (get().openSessionId !== sessionId) return;
        const tail = unpackSkeleton(skeleton, UNPACK);
        if (from === 0) return applySkeleton(tail, false);
        // answers come in order: this one is the newest; it fits what is held now if the prefix agrees
        const now = get().skeleton;
        if (!now || now.nodes.length < from || now.nodes[from - 1]!.id !== held.nodes[from - 1]!.id) return get().reloadSkeleton();
        applySkeleton({ sessionId, leafId: tail.leafId, nodes: now.nodes.slice(0, from).concat(tail.nodes) }, false);
      } catch (err) {
        get().notify("error", `Could not reload the session: ${errorMessage(err)}`, sessionId);
      }
    },

    onSessionUpdated(p) {
      const held = get().skeleton;
      if (p.sessionId === get().openSessionId) {
        // a leaf move changes no node: the event says where the leaf is now (a leaf not held yet, an
        // entry just appended, comes with the nodes after those held)
        const leafHeld = (h: TreeSkeleton) => h.sessionId === p.sessionId && (p.leafId === null || h.nodes.some((n) => n.id === p.leafId));
        if (p.reason === "leaf-moved" && held && leafHeld(held)) {
          if (held.leafId !== p.leafId) applySkeleton({ ...held, leafId: p.leafId }, false);
        } else if (p.reason === "entries-added" || p.reason === "leaf-moved") void get().extendSkeleton();
        else void get().reloadSkeleton();
      }
      // entry counts and dates in the list change too
      void get().refreshSessions();
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
      void fillPreviews();
      if (!selectedId.startsWith("seg:")) void get().loadDetail(selectedId);
    },

    select(flowId, panel) {
      set({ selectedId: flowId });
      if (panel) get().setPanel(panel);
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
        void fillPreviews();
      }
      if (!get().graph?.flowIndex.has(entryId)) {
        get().notify("warning", `Entry ${entryId} is not in this session's tree.`, get().openSessionId);
        return;
      }
      get().select(entryId, panel);
      set({ focus: { target: entryId, seq: ++focusSeq } });
    },

    jumpTo(sessionId, entryId, panel = "inspect") {
      if (sessionId === get().openSessionId) {
        get().reveal(entryId, panel);
        return;
      }
      set({ pendingReveal: { sessionId, entryId, panel } });
      void get()
        .openSession(sessionId)
        .then(() => set({ pendingReveal: null }));
    },

    requestFocus(target) {
      set({ focus: { target, seq: ++focusSeq } });
    },

    setFollow(on) {
      set({ follow: on });
    },

    async loadDetail(entryId, force) {
      const { openSessionId: sessionId, details } = get();
      if (!sessionId) return;
      if (details[entryId] && !force) return;
      try {
        const detail = await api().getEntry({ sessionId, entryId });
        if (get().openSessionId !== sessionId) return;
        set({ details: { ...get().details, [entryId]: detail }, detailError: null });
      } catch (err) {
        if (get().openSessionId === sessionId) set({ detailError: errorMessage(err) });
      }
    },
  };
};
