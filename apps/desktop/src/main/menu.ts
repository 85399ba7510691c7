/** The application menu. Commands the renderer handles are sent as menuCommand events. */
import { app, Menu, shell, type MenuItemConstructorOptions } from "electron";
import type { EventPayload } from "@bonsai/ipc";

type MenuCommand = EventPayload<"menuCommand">["command"];

export function buildMenu(send: (command: MenuCommand) => void, dataDir: string): Menu {
  const isMac = process.platform === "darwin";
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: "appMenu" as const }] : []),
    {
      label: "&File",
      submenu: [
        { label: "Import Sessions…", accelerator: "CmdOrCtrl+O", click: () => send("import") },
        { label: "Export…", accelerator: "CmdOrCtrl+Shift+E", click: () => send("export") },
        { type: "separator" },
        { label: "Preferences…", accelerator: "CmdOrCtrl+,", click: () => send("preferences") },
        { type: "separator" },
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
        { role: "reload" },
        { role: "toggleDevTools" },
        { type: "separator" },
        { role: "resetZoom", accelerator: "CmdOrCtrl+Shift+0" },
        { role: "zoomIn" },
        { role: "zoomOut" },
        { type: "separator" },
        { role: "togglefullscreen" },
      ],
    },
    {
      label: "&Help",
      submenu: [
        { label: "Open Data Folder", click: () => void shell.openPath(dataDir) },
        { label: `About Bonsai ${app.getVersion()}`, click: () => app.showAboutPanel() },
      ],
    },
  ];
  return Menu.buildFromTemplate(template);
}
