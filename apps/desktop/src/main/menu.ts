/**
 * The application menu, in each platform's standard shape: on macOS the app menu (About, Preferences,
 * Services, Hide, Quit) and the Window menu; elsewhere Preferences under File and About under Help.
 * Commands the renderer handles are sent as menuCommand events (the renderer's table in
 * shell/menu-commands.ts runs them); DevTools and Reload only in development.
 */
import { app, Menu, type MenuItemConstructorOptions } from "electron";
import type { EventPayload } from "@bonsai/ipc";

export type MenuCommand = EventPayload<"menuCommand">["command"];

export interface MenuActions {
  send(command: MenuCommand): void;
  openDataFolder(): void;
  showLogs(): void;
  /** a window on a team archive (archive-window.ts) */
  connectArchive(): void;
}

export function menuTemplate(actions: MenuActions, options: { isMac: boolean; isDev: boolean }): MenuItemConstructorOptions[] {
  const { isMac, isDev } = options;
  const { send } = actions;
  const preferences: MenuItemConstructorOptions = { label: "Preferences…", accelerator: "CmdOrCtrl+,", click: () => send("preferences") };
  const appMenu: MenuItemConstructorOptions = {
    label: app.name,
    submenu: [
      { role: "about" },
      { type: "separator" },
      preferences,
      { type: "separator" },
      { role: "services" },
      { type: "separator" },
      { role: "hide" },
      { role: "hideOthers" },
      { role: "unhide" },
      { type: "separator" },
      { role: "quit" },
    ],
  };
  return [
    ...(isMac ? [appMenu] : []),
    {
      label: "&File",
      submenu: [
        { label: "Import Sessions…", accelerator: "CmdOrCtrl+O", click: () => send("import") },
        ...(isMac ? [{ role: "recentDocuments" as const, submenu: [{ role: "clearRecentDocuments" as const }] }] : []),
        { label: "Export…", accelerator: "CmdOrCtrl+Shift+E", click: () => send("export") },
        { type: "separator" },
        { label: "Connect to Team Archive…", click: () => actions.connectArchive() },
        { type: "separator" },
        ...(isMac ? [] : [preferences, { type: "separator" as const }]),
        isMac ? { role: "close" } : { role: "quit" },
      ],
    },
    { role: "editMenu" },
    {
      label: "&View",
      submenu: [
        { label: "Search Sessions", accelerator: "CmdOrCtrl+F", click: () => send("search") },
        { label: "Zoom Tree to Fit", accelerator: "CmdOrCtrl+0", click: () => send("zoomToFit") },
        { label: "Zoom to Active Leaf", accelerator: "CmdOrCtrl+L", click: () => send("zoomToLeaf") },
        { type: "separator" },
        ...(isDev ? [{ role: "reload" as const }, { role: "toggleDevTools" as const }, { type: "separator" as const }] : []),
        { role: "resetZoom", accelerator: "CmdOrCtrl+Shift+0" },
        { role: "zoomIn" },
        { role: "zoomOut" },
        { type: "separator" },
        { role: "togglefullscreen" },
      ],
    },
    ...(isMac ? [{ role: "windowMenu" as const }] : []),
    {
      role: "help",
      label: "&Help",
      submenu: [
        { label: "Open Data Folder", click: () => actions.openDataFolder() },
        { label: "Show Logs", click: () => actions.showLogs() },
        ...(isMac ? [] : [{ type: "separator" as const }, { role: "about" as const, label: `About ${app.name}` }]),
      ],
    },
  ];
}

export function buildMenu(actions: MenuActions): Menu {
  return Menu.buildFromTemplate(menuTemplate(actions, { isMac: process.platform === "darwin", isDev: !app.isPackaged }));
}
