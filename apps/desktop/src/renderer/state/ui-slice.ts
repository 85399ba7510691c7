/** Notifications, connection status and host information. */
import type { MethodOutput } from "@bonsai/ipc";
import type { ConnectionStatus } from "../lib/api";
import type { Slice } from "./types";

export type NotificationLevel = "info" | "warning" | "error";

export interface Notification {
  id: number;
  level: NotificationLevel;
  message: string;
  sessionId: string | null;
}

export interface UiSlice {
  notifications: Notification[];
  connection: ConnectionStatus;
  appInfo: MethodOutput<"getAppInfo"> | null;
  notify(level: NotificationLevel, message: string, sessionId?: string | null): void;
  dismissNotification(id: number): void;
  setConnection(status: ConnectionStatus): void;
  setAppInfo(info: MethodOutput<"getAppInfo">): void;
}

let nextNotificationId = 1;
const MAX_NOTIFICATIONS = 6;

export const createUiSlice: Slice<UiSlice> = (set) => ({
  notifications: [],
  connection: "connecting",
  appInfo: null,
  notify(level, message, sessionId = null) {
    const n: Notification = { id: nextNotificationId++, level, message, sessionId };
    set((s) => ({ notifications: [...s.notifications, n].slice(-MAX_NOTIFICATIONS) }));
  },
  dismissNotification(id) {
    set((s) => ({ notifications: s.notifications.filter((n) => n.id !== id) }));
  },
  setConnection(connection) {
    set({ connection });
  },
  setAppInfo(appInfo) {
    set({ appInfo });
  },
});
