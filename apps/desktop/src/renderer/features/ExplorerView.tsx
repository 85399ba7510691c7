/**
 * The explorer's session view (the shell's SessionView slot): toolbar, tree canvas, side panel
 * (inspector, context, compaction, pruning) and the composer.
 */
import { useEffect } from "react";
import type { SessionViewProps } from "../shell/slots";
import { Composer } from "./composer/Composer";
import { CompactionPanel } from "./compaction/CompactionPanel";
import { ContextView } from "./context/ContextView";
import { Inspector } from "./inspector/Inspector";
import { PrunePanel } from "./prune/PrunePanel";
import { AmnesiaPanel } from "./amnesia/AmnesiaPanel";
import { useExplorer } from "./store";
import type { PanelName } from "./store";
import { TreeCanvas } from "./tree/TreeCanvas";
import { useDarkTheme } from "./theme";
import { ForeignNotice } from "./foreign/ReadOnly";

const PANELS: Array<{ name: PanelName; title: string; key: string }> = [
  { name: "inspect", title: "Inspect", key: "Enter" },
  { name: "context", title: "What the model sees", key: "W" },
  { name: "compact", title: "Compact", key: "C" },
  { name: "prune", title: "Prune", key: "P" },
  { name: "amnesia", title: "Amnesia", key: "A" },
];

function Toolbar() {
  const graph = useExplorer((s) => s.graph);
  const entryCount = useExplorer((s) => s.skeleton?.nodes.length ?? 0);
  const layoutMs = useExplorer((s) => s.layoutMs);
  const follow = useExplorer((s) => s.follow);
  const auto = useExplorer((s) => s.autoCompaction);
  const leafId = useExplorer((s) => s.skeleton?.leafId ?? null);
  const requestFocus = useExplorer((s) => s.requestFocus);
  const setFollow = useExplorer((s) => s.setFollow);
  const setPanel = useExplorer((s) => s.setPanel);
  const pathLength = graph?.active.path.length ?? 0;
  return (
    <div className="bz-toolbar">
      <span className="bz-status" data-testid="tree-status" data-active-path={pathLength} data-entry-count={entryCount} data-flow-nodes={graph?.nodes.length ?? 0} data-leaf-id={leafId ?? ""}>
        {entryCount.toLocaleString()} entries · <span data-testid="active-path-count">{pathLength.toLocaleString()}</span> on the active path · {graph?.nodes.length.toLocaleString() ?? 0} nodes drawn
        <span className="bz-muted"> · layout {Math.round(layoutMs)} ms</span>
      </span>
      <span className="bz-legend" aria-hidden>
        <span className="bz-swatch bz-region-summarized" /> not sent
        <span className="bz-swatch bz-region-kept" /> kept (sent)
        <span className="bz-swatch bz-region-live" /> sent
      </span>
      {auto ? (
        <span className="bz-progress" data-testid="auto-compaction">
          <span className="bz-spinner" /> Auto-compacting ({auto})…
        </span>
      ) : null}
      <span className="app__spacer" />
      <label className="bz-check" title="Center the tree on the leaf when an agent appends entries">
        <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} data-testid="follow-toggle" /> Follow
      </label>
      <button type="button" disabled={!leafId} onClick={() => setPanel("compact")} data-testid="toolbar-compact" title="Compact at the leaf (C)">
        Compact…
      </button>
      <button type="button" onClick={() => requestFocus("fit")} data-testid="zoom-fit" title="Zoom to fit (F)">
        Fit
      </button>
      <button type="button" disabled={!leafId} onClick={() => leafId && requestFocus(leafId)} data-testid="zoom-leaf" title="Zoom to the active leaf (L)">
        Leaf
      </button>
    </div>
  );
}

function SidePanel() {
  const panel = useExplorer((s) => s.panel);
  const setPanel = useExplorer((s) => s.setPanel);
  return (
    <aside className="bz-side" data-testid="side-panel" data-panel={panel}>
      <nav className="bz-tabs" role="tablist">
        {PANELS.map((p) => (
          <button key={p.name} type="button" role="tab" aria-selected={panel === p.name} className={panel === p.name ? "bz-tab-on" : ""} onClick={() => setPanel(p.name)} data-testid={`tab-${p.name}`} title={`${p.title} (${p.key})`}>
            {p.title}
          </button>
        ))}
      </nav>
      <div className="bz-side-body">
        {panel === "inspect" ? <Inspector /> : null}
        {panel === "context" ? <ContextView /> : null}
        {panel === "compact" ? <CompactionPanel /> : null}
        {panel === "prune" ? <PrunePanel /> : null}
        {panel === "amnesia" ? <AmnesiaPanel /> : null}
      </div>
    </aside>
  );
}

export function ExplorerView({ sessionId, session, skeleton }: SessionViewProps) {
  const ready = useExplorer((s) => s.sessionId === sessionId && s.graph !== null);
  const setSkeleton = useExplorer((s) => s.setSkeleton);
  const dark = useDarkTheme();
  useEffect(() => {
    setSkeleton(sessionId, session.title, skeleton);
  }, [sessionId, session.title, skeleton, setSkeleton]);
  return (
    <div className="bz-explorer" data-testid="explorer">
      {ready ? (
        <>
          <Toolbar />
          <ForeignNotice />
          <div className="bz-split">
            <TreeCanvas dark={dark} />
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
