/**
 * The desktop menu's commands (main sends them as menuCommand events) and the app command each one
 * runs: one table, so every menu item (and its accelerator) does what the palette's command does.
 * A menu command that cannot run now (Export or a zoom with no session open) says why instead of
 * doing nothing. Main's command list is checked against this table by the host test
 * (test/host.test.ts); e2e/specs/shell-menu-commands.spec.ts sends each one to the page.
 */
import type { EventPayload } from "@bonsai/ipc";
import { COMMANDS } from "../features/keyboard/commands";
import { useBonsai } from "../state/store";

export type MenuCommand = EventPayload<"menuCommand">["command"];

/** menu command -> the id of the command in features/keyboard/commands.ts it runs */
export const MENU_COMMAND_HANDLERS: Readonly<Record<MenuCommand, string>> = {
  import: "import",
  export: "export-jsonl",
  preferences: "preferences",
  search: "search",
  zoomToFit: "fit",
  zoomToLeaf: "leaf",
};

/** what the page says when a menu command's app command cannot run now */
export const MENU_COMMAND_UNAVAILABLE: Readonly<Record<MenuCommand, string>> = {
  import: "Nothing is imported here: push sessions with bonsai push.",
  export: "Open a session first: Export saves the open session.",
  preferences: "Preferences cannot open now.",
  search: "Search cannot open now.",
  zoomToFit: "Open a session first: Zoom Tree to Fit zooms the open session's tree.",
  zoomToLeaf: "Open a session first: Zoom to Active Leaf zooms to the open session's leaf.",
};

/** The app command a menu command runs, or null for a command this renderer does not know. */
export function appCommandFor(command: string): string | null {
  return Object.hasOwn(MENU_COMMAND_HANDLERS, command) ? MENU_COMMAND_HANDLERS[command as MenuCommand] : null;
}

/** Runs a menu command's app command, or says why it cannot run now; a command it does not know is ignored. */
export function runMenuCommand(command: string): void {
  const id = appCommandFor(command);
  const app = COMMANDS.find((c) => c.id === id);
  if (!app) return;
  const s = useBonsai.getState();
  if (app.enabled(s)) app.run(s);
  else s.notify("info", MENU_COMMAND_UNAVAILABLE[command as MenuCommand]);
}
