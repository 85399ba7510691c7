/**
 * Mounted once at the root (the shell's Overlays slot): dialogs, the preferences pane, search, the
 * command palette and keyboard help, the shortcuts, and the theme.
 */
import { useEffect } from "react";
import { useBonsai } from "../state/store";
import { AmnesiaAcrossPanel } from "./amnesia/AmnesiaAcross";
import { SwitchBranchDialog } from "./branch/SwitchBranchDialog";
import { runCommand } from "./keyboard/commands";
import { Help } from "./keyboard/Help";
import { isActivatable, isTyping, step } from "./keyboard/navigate";
import type { Direction } from "./keyboard/navigate";
import { Palette } from "./keyboard/Palette";
import { Preferences } from "./preferences/Preferences";
import { SearchPanel } from "./search/SearchPanel";
import { switchTheme, useApplyTheme } from "./theme";

const ARROWS: Record<string, Direction> = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };

/** single keys and the commands they run (commands.ts lists them with their help text) */
const LETTERS: Record<string, string> = {
  "?": "help",
  "/": "search",
  ",": "preferences",
  g: "view-tree",
  t: "view-transcript",
  i: "panel-inspect",
  w: "panel-context",
  c: "panel-compact",
  p: "panel-prune",
  a: "panel-amnesia",
  A: "amnesia-all",
  s: "switch",
  f: "fit",
  l: "leaf",
  m: "minimap",
};

/**
 * The arrows walk the tree unless the focus is where they mean something else: a menu, a list, a
 * splitter, or a panel, list or transcript that they scroll.
 */
function arrowsWalkTree(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement) || target === document.body) return true;
  return target.closest("[role=menu], [role=listbox], [role=separator], [role=dialog], .bz-side-body, .bz-transcript, .app__sidebar-list") === null;
}

function anyDialogOpen(): boolean {
  const s = useBonsai.getState();
  return s.searchOpen || s.amnesiaAllOpen || s.prefsOpen || s.paletteOpen || s.helpOpen || s.switchTarget !== null || s.removingSessionId !== null;
}

function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey) return;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === "k") {
        e.preventDefault();
        useBonsai.getState().setUi({ paletteOpen: !useBonsai.getState().paletteOpen });
        return;
      }
      if (anyDialogOpen()) return;
      if (mod) {
        if (e.key === ",") {
          e.preventDefault();
          runCommand("preferences");
        } else if (e.key.toLowerCase() === "z" && !isTyping(e.target)) {
          e.preventDefault();
          runCommand(e.shiftKey ? "redo" : "undo");
        } else if (e.key.toLowerCase() === "y" && !e.shiftKey && !isTyping(e.target)) {
          e.preventDefault();
          runCommand("redo");
        }
        return;
      }
      if (isTyping(e.target)) return;
      // Enter on a focused button or link activates it; it is not a tree shortcut
      if (e.key === "Enter" && isActivatable(e.target)) return;
      const s = useBonsai.getState();
      const dir = ARROWS[e.key];
      if (dir) {
        if (!arrowsWalkTree(e.target) || !s.graph || s.view !== "tree") return;
        e.preventDefault();
        const next = step(s.graph, s.selectedId, dir);
        if (next) {
          // the inspector (and What the model sees) follow the selection at once
          s.select(next);
          s.requestFocus(next);
        }
        return;
      }
      if (e.key === "Enter") {
        if (!s.selectedId || !arrowsWalkTree(e.target)) return;
        e.preventDefault();
        runCommand("open");
        return;
      }
      const command = LETTERS[e.key];
      if (command) {
        e.preventDefault();
        runCommand(command);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

export function Overlays() {
  useShortcuts();
  useApplyTheme();
  return (
    <>
      <SwitchBranchDialog />
      <Preferences />
      <SearchPanel />
      <AmnesiaAcrossPanel />
      <Palette />
      <Help />
    </>
  );
}

export function HeaderItems() {
  const setUi = useBonsai((s) => s.setUi);
  const theme = useBonsai((s) => s.settingsState?.settings.theme ?? "system");
  const onArchive = useBonsai((s) => s.appInfo?.readOnly !== undefined);
  const nextTheme = theme === "system" ? "light" : theme === "light" ? "dark" : "system";
  return (
    <>
      <button type="button" onClick={() => setUi({ searchOpen: true })} data-testid="open-search" title="Search all sessions (/)">
        Search
      </button>
      <button type="button" onClick={() => setUi({ paletteOpen: true })} data-testid="open-palette" title="Every command (Ctrl+K or ⌘K)">
        Commands
      </button>
      <button
        type="button"
        onClick={() => void switchTheme()}
        data-testid="theme-toggle"
        data-theme-setting={theme}
        title={`Theme: ${theme} (click for ${nextTheme}${onArchive ? "; for this page only: a team archive's settings do not change" : ""})`}
      >
        Theme: {theme}
      </button>
      <button type="button" onClick={() => setUi({ prefsOpen: true })} data-testid="open-preferences" title="Preferences (,)">
        Preferences
      </button>
      <button type="button" onClick={() => setUi({ helpOpen: true })} data-testid="open-help" title="Keyboard help (?)" aria-label="Keyboard help">
        ?
      </button>
    </>
  );
}
