/** Remembers the window's size, position and maximized state in <userData>/window-state.json. */
import * as fs from "node:fs";
import * as path from "node:path";
import type { BrowserWindow, Rectangle } from "electron";

export interface WindowState {
  bounds: Partial<Rectangle> & { width: number; height: number };
  maximized: boolean;
}

const DEFAULT: WindowState = { bounds: { width: 1280, height: 820 }, maximized: false };

export function loadWindowState(userData: string): WindowState {
  try {
    const raw = JSON.parse(fs.readFileSync(path.join(userData, "window-state.json"), "utf8")) as Partial<WindowState>;
    const b = raw.bounds;
    if (!b || !(Number(b.width) >= 400) || !(Number(b.height) >= 300)) return DEFAULT;
    return { bounds: { x: b.x, y: b.y, width: b.width, height: b.height }, maximized: raw.maximized === true };
  } catch {
    return DEFAULT;
  }
}

export function trackWindowState(win: BrowserWindow, userData: string): void {
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    if (win.isDestroyed()) return;
    const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
    try {
      fs.writeFileSync(path.join(userData, "window-state.json"), JSON.stringify(state));
    } catch {
      // not worth bothering the user about
    }
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(save, 400);
  };
  win.on("resize", later);
  win.on("move", later);
  win.on("close", () => {
    clearTimeout(timer);
    save();
  });
}
