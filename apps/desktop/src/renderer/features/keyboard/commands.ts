/**
 * Every action of the app as a command: what the palette (Ctrl/Cmd+K) lists and runs, what the
 * keyboard help (?) shows, and what the shortcuts call. One list, so a key, its help line and its
 * palette entry cannot drift apart.
 */
import { chooseAndImport, exportOpenSession } from "../../shell/import";
import { useBonsai } from "../../state/store";
import type { BonsaiState } from "../../state/types";
import { redoLastUndone, undoLastChange } from "../actions/undo";
import { switchTheme } from "../theme";

export interface Command {
  id: string;
  title: string;
  group: "Session" | "Tree" | "Panels" | "App";
  /** the key that runs it, as shown ("Ctrl+K", "W", "↑ ↓ ← →") */
  keys?: string;
  /** false: listed in the help, but not runnable now */
  enabled(s: BonsaiState): boolean;
  run(s: BonsaiState): void;
}

const hasSession = (s: BonsaiState) => s.openSessionId !== null && s.graph !== null;
const selectedEntry = (s: BonsaiState) => (s.selectedId && !s.selectedId.startsWith("seg:") ? s.selectedId : null);
const always = () => true;
/** nothing on this host changes (a team archive): the commands that would change something are not runnable */
const writable = (s: BonsaiState) => s.appInfo?.readOnly === undefined;

export const COMMANDS: readonly Command[] = [
  { id: "palette", title: "Show all commands", group: "App", keys: "Ctrl+K / ⌘K", enabled: always, run: (s) => s.setUi({ paletteOpen: true }) },
  { id: "help", title: "Keyboard help", group: "App", keys: "?", enabled: always, run: (s) => s.setUi({ helpOpen: true }) },
  { id: "search", title: "Search all sessions", group: "App", keys: "/", enabled: always, run: (s) => s.setUi({ searchOpen: true }) },
  { id: "amnesia-all", title: "Amnesia across sessions (where compaction lost context, worst first)", group: "App", keys: "Shift+A", enabled: always, run: (s) => s.setUi({ amnesiaAllOpen: true }) },
  { id: "preferences", title: "Preferences", group: "App", keys: ",", enabled: always, run: (s) => s.setUi({ prefsOpen: true }) },
  { id: "import", title: "Import session files…", group: "App", enabled: writable, run: () => void chooseAndImport() },
  {
    id: "theme",
    title: "Switch the theme (system, light, dark)",
    group: "App",
    enabled: (s) => s.settingsState !== null,
    run: () => void switchTheme(),
  },
  { id: "focus-list", title: "Go to the session list", group: "App", enabled: always, run: () => document.querySelector<HTMLElement>("[data-testid=session-filter]")?.focus() },

  { id: "view-tree", title: "Show the tree", group: "Session", keys: "G", enabled: hasSession, run: (s) => s.setView("tree") },
  { id: "view-transcript", title: "Read the transcript", group: "Session", keys: "T", enabled: hasSession, run: (s) => s.setView("transcript") },
  { id: "undo", title: "Undo the last compaction, branch switch, label or prune", group: "Session", keys: "Ctrl+Z / ⌘Z", enabled: (s) => s.undo !== null && writable(s), run: () => void undoLastChange() },
  { id: "redo", title: "Redo the last change undone", group: "Session", keys: "Ctrl+Shift+Z / Ctrl+Y", enabled: (s) => s.redo !== null && writable(s), run: () => void redoLastUndone() },
  { id: "export-jsonl", title: "Export the session as JSONL", group: "Session", enabled: hasSession, run: () => void exportOpenSession("jsonl") },
  { id: "export-markdown", title: "Export the session as Markdown", group: "Session", enabled: hasSession, run: () => void exportOpenSession("markdown") },
  { id: "export-html", title: "Export the session as HTML (one offline page)", group: "Session", enabled: hasSession, run: () => void exportOpenSession("html") },
  // on a team archive the pi copy is a download, continued on one's own machine
  { id: "continue-in-pi", title: "Continue in pi (a pi copy of a Claude Code or Codex session, or of an archived one)", group: "Session", enabled: (s) => s.session?.readOnly !== undefined, run: (s) => void (s.session?.archive ? exportOpenSession("pi") : s.continueInPi()) },
  { id: "rename", title: "Rename the session", group: "Session", enabled: (s) => hasSession(s) && writable(s), run: (s) => s.setRenaming(s.openSessionId) },
  { id: "remove", title: "Remove the session from Bonsai (the agent's file is kept)", group: "Session", enabled: (s) => hasSession(s) && writable(s), run: (s) => s.setRemoving(s.openSessionId) },
  { id: "follow", title: "Follow the leaf when an agent appends (on/off)", group: "Session", enabled: (s) => hasSession(s) && writable(s), run: (s) => s.setFollow(!s.follow) },

  { id: "walk", title: "Move the selection (parent, child, siblings)", group: "Tree", keys: "↑ ↓ ← →", enabled: hasSession, run: () => document.querySelector<HTMLElement>("[data-testid=tree-canvas]")?.focus() },
  {
    id: "open",
    title: "Inspect the selected node, or expand a run",
    group: "Tree",
    keys: "Enter",
    enabled: (s) => s.selectedId !== null,
    run: (s) => {
      if (s.selectedId?.startsWith("seg:")) s.toggleSegment(s.selectedId);
      else if (s.selectedId) s.select(s.selectedId, "inspect");
    },
  },
  {
    id: "leaf",
    title: "Select the leaf and zoom to it",
    group: "Tree",
    keys: "L",
    enabled: (s) => (s.skeleton?.leafId ?? null) !== null,
    run: (s) => {
      const leaf = s.skeleton?.leafId;
      if (!leaf) return;
      s.select(leaf);
      s.requestFocus(leaf);
    },
  },
  { id: "fit", title: "Zoom to fit the whole tree", group: "Tree", keys: "F", enabled: hasSession, run: (s) => (s.setView("tree"), s.requestFocus("fit")) },
  { id: "switch", title: "Switch branch to the selected node…", group: "Tree", keys: "S", enabled: (s) => selectedEntry(s) !== null && selectedEntry(s) !== s.skeleton?.leafId && writable(s), run: (s) => s.setWork({ switchTarget: selectedEntry(s) }) },
  {
    id: "label",
    title: "Label the selected node",
    group: "Tree",
    // a Claude Code / Codex session is never written: no labels (Continue in pi)
    enabled: (s) => selectedEntry(s) !== null && s.session?.readOnly === undefined && writable(s),
    run: (s) => {
      s.setPanel("inspect");
      requestAnimationFrame(() => document.querySelector<HTMLElement>("[data-testid=label-input]")?.focus());
    },
  },
  { id: "minimap", title: "Show or hide the map", group: "Tree", keys: "M", enabled: hasSession, run: (s) => s.setMinimapOpen(!s.minimapOpen) },

  { id: "panel-inspect", title: "Inspect", group: "Panels", keys: "I", enabled: hasSession, run: (s) => s.setPanel("inspect") },
  { id: "panel-context", title: "What the model sees (from the selected node)", group: "Panels", keys: "W", enabled: hasSession, run: (s) => s.setPanel("context") },
  { id: "panel-compact", title: "Compact at the leaf…", group: "Panels", keys: "C", enabled: hasSession, run: (s) => s.setPanel("compact") },
  { id: "panel-prune", title: "Prune old tool outputs…", group: "Panels", keys: "P", enabled: hasSession, run: (s) => s.setPanel("prune") },
  { id: "panel-amnesia", title: "Amnesia: signs the agent lost context after a compaction", group: "Panels", keys: "A", enabled: hasSession, run: (s) => s.setPanel("amnesia") },
];

/** The palette's command for an entry id typed into it: select the entry and show it in the tree. */
export function goToEntry(entryId: string): Command {
  return {
    id: `go-to-${entryId}`,
    title: `Go to entry ${entryId}`,
    group: "Tree",
    enabled: always,
    run: (s) => {
      s.setView("tree");
      s.reveal(entryId, "inspect");
    },
  };
}

export function runCommand(id: string): void {
  const command = COMMANDS.find((c) => c.id === id);
  const s = useBonsai.getState();
  if (command && command.enabled(s)) command.run(s);
}

/** Palette filtering: every word must appear in the title (any order, any case). */
export function matchCommands(query: string, commands: readonly Command[] = COMMANDS): Command[] {
  const words = query.toLowerCase().split(/\s+/u).filter(Boolean);
  return commands.filter((c) => words.every((w) => c.title.toLowerCase().includes(w) || c.group.toLowerCase().includes(w)));
}
