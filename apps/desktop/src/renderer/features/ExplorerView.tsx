/**
 * The explorer's session view (the shell's SessionView slot): toolbar, the tree or the transcript,
 * the side panel (inspector, what the model sees, compaction, pruning; resizable) and the composer.
 */
import { useEffect } from "react";
import type { SessionViewProps } from "../shell/slots";
import { Splitter } from "../shell/Splitter";
import { useBonsai } from "../state/store";
import type { PanelName, ViewName } from "../state/ui-slice";
import { redoLastUndone, undoLastChange } from "./actions/undo";
import { Composer } from "./composer/Composer";
import { CompactionPanel } from "./compaction/CompactionPanel";
import { ContextView } from "./context/ContextView";
import { Inspector } from "./inspector/Inspector";
import { PrunePanel } from "./prune/PrunePanel";
import { AmnesiaPanel } from "./amnesia/AmnesiaPanel";
import { Transcript } from "./transcript/Transcript";
import { TreeCanvas } from "./tree/TreeCanvas";
import { useDarkTheme } from "./theme";
import { ForeignNotice, useHostReadOnly } from "./foreign/ReadOnly";

export const PANELS: Array<{ name: PanelName; title: string; key: string }> = [
  { name: "inspect", title: "Inspect", key: "I" },
  { name: "context", title: "What the model sees", key: "W" },
  { name: "compact", title: "Compact", key: "C" },
  { name: "prune", title: "Prune", key: "P" },
  { name: "amnesia", title: "Amnesia", key: "A" },
];

const VIEWS: Array<{ name: ViewName; title: string; key: string }> = [
  { name: "tree", title: "Tree", key: "G" },
  { name: "transcript", title: "Transcript", key: "T" },
];

function Toolbar() {
  const graph = useBonsai((s) => s.graph);
  const entryCount = useBonsai((s) => s.skeleton?.nodes.length ?? 0);
  const layoutMs = useBonsai((s) => s.layoutMs);
  const follow = useBonsai((s) => s.follow);
  const auto = useBonsai((s) => s.autoCompaction);
  const leafId = useBonsai((s) => s.skeleton?.leafId ?? null);
  const undo = useBonsai((s) => s.undo);
  const redo = useBonsai((s) => s.redo);
  const requestFocus = useBonsai((s) => s.requestFocus);
  const setFollow = useBonsai((s) => s.setFollow);
  const setPanel = useBonsai((s) => s.setPanel);
  const view = useBonsai((s) => s.view);
  const setView = useBonsai((s) => s.setView);
  const pathLength = graph?.active.path.length ?? 0;
  // a team archive: no agent appends (nothing to follow) and nothing is compacted
  const hostReadOnly = useHostReadOnly();
  return (
    <div className="bz-toolbar" role="toolbar" aria-label="Session">
      <div className="bz-tabs bz-view-tabs" role="tablist" aria-label="View">
        {VIEWS.map((v) => (
          <button key={v.name} type="button" role="tab" aria-selected={view === v.name} className={view === v.name ? "bz-tab-on" : ""} onClick={() => setView(v.name)} data-testid={`view-${v.name}`} title={`${v.title} (${v.key})`}>
            {v.title}
          </button>
        ))}
      </div>
      <span
        className="bz-status"
        data-testid="tree-status"
        data-active-path={pathLength}
        data-entry-count={entryCount}
        data-flow-nodes={graph?.nodes.length ?? 0}
        data-layout-ms={Math.round(layoutMs)}
        data-leaf-id={leafId ?? ""}
        title={`${graph?.nodes.length.toLocaleString() ?? 0} nodes drawn (runs of entries are one node); layout ${Math.round(layoutMs)} ms`}
      >
        {entryCount.toLocaleString()} entries · <span data-testid="active-path-count">{pathLength.toLocaleString()}</span> on the active path
      </span>
      {auto ? (
        <span className="bz-progress" data-testid="auto-compaction">
          <span className="bz-spinner" /> Auto-compacting ({auto})…
        </span>
      ) : null}
      <Legend />
      <span className="app__spacer" />
      {undo ? (
        <button type="button" onClick={() => void undoLastChange()} data-testid="undo-button" title={`${undo.detail} (Ctrl+Z)`}>
          ↶ {undo.title}
        </button>
      ) : null}
      {redo ? (
        <button type="button" onClick={() => void redoLastUndone()} data-testid="redo-button" title={`${redo.detail} (Ctrl+Shift+Z)`}>
          ↷ {redo.title}
        </button>
      ) : null}
      {hostReadOnly === null ? (
        <>
          <label className="bz-check" title="Center the tree on the leaf when an agent appends entries">
            <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} data-testid="follow-toggle" /> Follow
          </label>
          <button type="button" disabled={!leafId} onClick={() => setPanel("compact")} data-testid="toolbar-compact" title="Compact at the leaf (C)">
            Compact…
          </button>
        </>
      ) : null}
      <button type="button" onClick={() => requestFocus("fit")} data-testid="zoom-fit" title="Zoom to fit the whole tree (F)" disabled={view !== "tree"}>
        Fit
      </button>
      <button type="button" disabled={!leafId || view !== "tree"} onClick={() => leafId && requestFocus(leafId)} data-testid="zoom-leaf" title="Zoom to the active leaf (L)">
        Leaf
      </button>
    </div>
  );
}

function Legend() {
  return (
    <div className="bz-legend" aria-label="Legend" data-testid="legend">
      <span className="bz-swatch bz-region-summarized" /> not sent
      <span className="bz-swatch bz-region-kept" /> kept (sent)
      <span className="bz-swatch bz-region-live" /> sent
    </div>
  );
}

function SidePanel() {
  const panel = useBonsai((s) => s.panel);
  const setPanel = useBonsai((s) => s.setPanel);
  const width = useBonsai((s) => s.panes.side);
  return (
    <aside className="bz-side" data-testid="side-panel" data-panel={panel} style={{ width }} aria-label="Details">
      <nav className="bz-tabs" role="tablist" aria-label="Side panel">
        {PANELS.map((p) => (
          <button key={p.name} type="button" role="tab" aria-selected={panel === p.name} aria-controls="bz-side-body" className={panel === p.name ? "bz-tab-on" : ""} onClick={() => setPanel(p.name)} data-testid={`tab-${p.name}`} title={`${p.title} (${p.key})`}>
            {p.title}
          </button>
        ))}
      </nav>
      <div className="bz-side-body" id="bz-side-body" role="tabpanel" tabIndex={0} aria-label={PANELS.find((p) => p.name === panel)?.title}>
        {panel === "inspect" ? <Inspector /> : null}
        {panel === "context" ? <ContextView /> : null}
        {panel === "compact" ? <CompactionPanel /> : null}
        {panel === "prune" ? <PrunePanel /> : null}
        {panel === "amnesia" ? <AmnesiaPanel /> : null}
      </div>
    </aside>
  );
}

export function ExplorerView({ sessionId }: SessionViewProps) {
  const ready = useBonsai((s) => s.openSessionId === sessionId && s.graph !== null);
  const view = useBonsai((s) => s.view);
  const refreshUndo = useBonsai((s) => s.refreshUndo);
  const dark = useDarkTheme();
  useEffect(() => {
    void refreshUndo();
  }, [sessionId, refreshUndo]);
  return (
    <div className="bz-explorer" data-testid="explorer">
      {ready ? (
        <>
          <Toolbar />
          <ForeignNotice />
          <div className="bz-split">
            <div className="bz-main" data-view={view}>
              {view === "tree" ? (
                <TreeCanvas dark={dark} />
              ) : (
                <Transcript />
              )}
            </div>
            <Splitter pane="side" grows="left" label="Resize the side panel" />
            <SidePanel />
          </div>
          <Composer />
        </>
      ) : (
        <div className="empty">Laying out the tree…</div>
      )}
    </div>
  );
}
