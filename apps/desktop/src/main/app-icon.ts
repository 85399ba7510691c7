/// <reference types="electron-vite/node" />
/**
 * The window's icon on Linux, where a window shows its own (the taskbar, Alt+Tab); the packaged
 * app's icon serves macOS and Windows. electron-vite copies the PNG next to main's bundle.
 */
import iconPath from "../../build/icons/512x512.png?asset";

export function windowIcon(platform: NodeJS.Platform): { icon?: string } {
  return platform === "linux" ? { icon: iconPath } : {};
}
