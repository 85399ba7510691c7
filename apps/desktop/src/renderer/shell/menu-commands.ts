/**
 * The desktop menu's commands (main sends them as menuCommand events) and the app command each one
 * runs: one table, so every menu item (and its accelerator) does what the palette's command does.
 * Main's command list is checked against this table by the host test (test/host.test.ts).
 */
import type { EventPayload } from "@bonsai/ipc";

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

/** The app command a menu command runs, or null for a command this renderer does not know. */
export function appCommandFor(command: string): string | null {
  return Object.hasOwn(MENU_COMMAND_HANDLERS, command) ? MENU_COMMAND_HANDLERS[command as MenuCommand] : null;
}
