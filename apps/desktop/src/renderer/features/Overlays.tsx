/**
 * Mounted once at the root (the shell's Overlays slot): dialogs, the preferences pane, search,
 * keyboard shortcuts, theme, and the backend events the explorer listens to.
 */
import { useEffect } from "react";
import { api } from "../lib/api";
import { useBonsai } from "../state/store";
import { SwitchBranchDialog } from "./branch/SwitchBranchDialog";
import { isActivatable, isTyping, step } from "./keyboard/navigate";
import type { Direction } from "./keyboard/navigate";
import { Preferences } from "./preferences/Preferences";
import { SearchPanel } from "./search/SearchPanel";
import { useExplorer } from "./store";
import { useApplyTheme } from "./theme";

const ARROWS: Record<string, Direction> = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };

/** Keyboard: arrows walk the tree, Enter inspects (or expands a segment), letters open panels. */
function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.metaKey || isTyping(e.target)) return;
      // Enter on a focused button or link activates it; it is not a tree shortcut
      if (e.key === "Enter" && isActivatable(e.target)) return;
      const s = useExplorer.getState();
      if (e.ctrlKey) {
        if (e.key === "k") {
          e.preventDefault();
          s.setState({ searchOpen: true });
        } else if (e.key === ",") {
          e.preventDefault();
          s.setState({ prefsOpen: true });
        }
        return;
      }
      if (s.searchOpen || s.prefsOpen || s.switchTarget !== null) return;
      if (e.key === "/") {
        e.preventDefault();
        s.setState({ searchOpen: true });
        return;
      }
      if (e.key === ",") {
        s.setState({ prefsOpen: true });
        return;
      }
      const graph = s.graph;
      if (!graph || !s.sessionId) return;
      const dir = ARROWS[e.key];
      if (dir) {
        e.preventDefault();
        const next = step(graph, s.selectedId, dir);
        if (next) {
          s.setState({ selectedId: next });
          s.requestFocus(next);
        }
        return;
      }
      const sel = s.selectedId;
      switch (e.key) {
        case "Enter":
          if (!sel) return;
          e.preventDefault();
          if (sel.startsWith("seg:")) s.toggleSegment(sel);
          else s.select(sel, "inspect");
          return;
        case "c":
          s.setPanel("compact");
          return;
        case "w":
          s.setPanel("context");
          return;
        case "p":
          s.setPanel("prune");
          return;
        case "i":
          s.setPanel("inspect");
          return;
        case "a":
          s.setPanel("amnesia");
          return;
        case "s":
          if (sel && !sel.startsWith("seg:")) s.setState({ switchTarget: sel });
          return;
        case "f":
          s.requestFocus("fit");
          return;
        case "l": {
          const leaf = s.skeleton?.leafId;
          if (leaf) {
            s.setState({ selectedId: leaf });
            s.requestFocus(leaf);
          }
          return;
        }
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** Streaming replies and automatic compactions of the open session. */
function useExplorerEvents(): void {
  useEffect(() => {
    const a = api();
    const mine = (sessionId: string) => sessionId === useExplorer.getState().sessionId;
    const offs = [
      a.on("turnDelta", (p) => {
        if (!mine(p.sessionId) || p.kind !== "text") return;
        useExplorer.setState((s) => ({ streaming: s.streaming + p.delta }));
      }),
      a.on("compactionStart", (p) => {
        if (mine(p.sessionId) && p.reason !== "manual") useExplorer.setState({ autoCompaction: p.reason });
      }),
      a.on("compactionEnd", (p) => {
        if (mine(p.sessionId) && p.reason !== "manual") useExplorer.setState({ autoCompaction: null });
      }),
      // the shell closes / switches sessions: drop what belongs to the old one
      useBonsai.subscribe((state, prev) => {
        if (state.openSessionId !== prev.openSessionId && state.openSessionId === null) {
          useExplorer.setState({ sessionId: null, graph: null, skeleton: null, index: null, selectedId: null, context: null });
        }
      }),
    ];
    return () => offs.forEach((off) => off());
  }, []);
}

export function Overlays() {
  useShortcuts();
  useExplorerEvents();
  useApplyTheme();
  return (
    <>
      <SwitchBranchDialog />
      <Preferences />
      <SearchPanel />
    </>
  );
}

export function HeaderItems() {
  const setState = useExplorer((s) => s.setState);
  const theme = useBonsai((s) => s.settingsState?.settings.theme ?? "system");
  const updateSettings = useBonsai((s) => s.updateSettings);
  const notify = useBonsai((s) => s.notify);
  const nextTheme = theme === "system" ? "light" : theme === "light" ? "dark" : "system";
  return (
    <>
      <button type="button" onClick={() => setState({ searchOpen: true })} data-testid="open-search" title="Search all sessions (/ or Ctrl+K)">
        Search
      </button>
      <button
        type="button"
        onClick={() =>
          void updateSettings({ theme: nextTheme }).then((err) => {
            if (err) notify("error", `Theme not changed: ${err}`);
          })
        }
        data-testid="theme-toggle"
        data-theme-setting={theme}
        title={`Theme: ${theme} (click for ${nextTheme})`}
      >
        Theme: {theme}
      </button>
      <button type="button" onClick={() => setState({ prefsOpen: true })} data-testid="open-preferences" title="Preferences (,)">
        Preferences
      </button>
    </>
  );
}
