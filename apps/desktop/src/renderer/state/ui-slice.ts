/**
 * Notifications, connection status, host information, and the window's chrome: which dialogs are
 * open, the side panel's tab, tree or transcript, pane sizes (remembered in the browser).
 */
import type { MethodOutput, SearchHit } from "@bonsai/ipc";
import type { ConnectionStatus } from "../lib/api";
import { isBoolean, isNumber, loadPref, savePref } from "../lib/persist";
import { isNarrowWindow } from "../shell/narrow";
import type { Slice } from "./types";

export type NotificationLevel = "info" | "warning" | "error";

export interface Notification {
  id: number;
  level: NotificationLevel;
  message: string;
  /** the session it is about (shown only while that session is open); null = the app's */
  sessionId: string | null;
  /** how many times the same message came (shown as ×N instead of a pile) */
  count: number;
}

export type PanelName = "inspect" | "context" | "compact" | "prune" | "amnesia";
export type ViewName = "tree" | "transcript";

export interface PaneSizes {
  /** the session list */
  sidebar: number;
  /** the side panel (inspector, context, ...) */
  side: number;
}

export interface UiSlice {
  notifications: Notification[];
  connection: ConnectionStatus;
  appInfo: MethodOutput<"getAppInfo"> | null;
  /** the page is a team archive's and nobody is signed in yet (App.tsx's sign-in asks its /health): it imports nothing */
  archiveSignIn: boolean;
  panel: PanelName;
  view: ViewName;
  prefsOpen: boolean;
  searchOpen: boolean;
  /** the amnesia report across sessions (features/amnesia/AmnesiaAcross.tsx) is open */
  amnesiaAllOpen: boolean;
  searchHits: SearchHit[];
  searchError: string | null;
  helpOpen: boolean;
  paletteOpen: boolean;
  panes: PaneSizes;
  /** the window is below the narrow width (shell/narrow.ts): the session list is a drawer */
  narrow: boolean;
  /** the session list's drawer is open (narrow windows only) */
  sessionsDrawerOpen: boolean;
  /** the map beside the tree is unfolded (remembered apart for wide and narrow windows: folded by default when narrow) */
  minimapOpen: boolean;
  /** the session whose title is being edited in the list */
  renamingSessionId: string | null;
  /** the session asked to be removed from Bonsai (a confirmation is showing) */
  removingSessionId: string | null;
  /**
   * Info goes after about 5 s, warnings after 10 s, errors stay until dismissed. The same message
   * again (same level and session) is counted, not stacked.
   */
  notify(level: NotificationLevel, message: string, sessionId?: string | null): void;
  dismissNotification(id: number): void;
  /** drop the notifications of sessions other than `sessionId` (the open one changed) */
  scopeNotifications(sessionId: string | null): void;
  /** open or close dialogs, set search results */
  setUi(patch: Partial<Pick<UiSlice, "prefsOpen" | "searchOpen" | "amnesiaAllOpen" | "searchHits" | "searchError" | "helpOpen" | "paletteOpen" | "archiveSignIn">>): void;
  setConnection(status: ConnectionStatus): void;
  setAppInfo(info: MethodOutput<"getAppInfo">): void;
  setPanel(panel: PanelName): void;
  setView(view: ViewName): void;
  setPane(which: keyof PaneSizes, px: number): void;
  setMinimapOpen(open: boolean): void;
  /** the window crossed the narrow width: the drawer closes, the map takes that width's remembered state */
  setNarrow(narrow: boolean): void;
  setSessionsDrawer(open: boolean): void;
  setRenaming(sessionId: string | null): void;
  setRemoving(sessionId: string | null): void;
}

let nextNotificationId = 1;
const MAX_NOTIFICATIONS = 4;
export const NOTIFICATION_LIFETIME_MS: Record<NotificationLevel, number | null> = { info: 5_000, warning: 10_000, error: null };
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export const PANE_LIMITS: Record<keyof PaneSizes, { min: number; max: number; initial: number }> = {
  sidebar: { min: 200, max: 520, initial: 300 },
  side: { min: 320, max: 760, initial: 470 },
};

const clampPane = (which: keyof PaneSizes, px: number) => Math.round(Math.min(PANE_LIMITS[which].max, Math.max(PANE_LIMITS[which].min, px)));

function initialPanes(): PaneSizes {
  return {
    sidebar: clampPane("sidebar", loadPref("pane.sidebar", PANE_LIMITS.sidebar.initial, isNumber)),
    side: clampPane("side", loadPref("pane.side", PANE_LIMITS.side.initial, isNumber)),
  };
}

const minimapPref = (narrow: boolean) => (narrow ? "minimap.narrow" : "minimap");
const loadMinimapOpen = (narrow: boolean) => loadPref(minimapPref(narrow), !narrow, isBoolean);

/** The page is a team archive's and nobody has signed in: it says so, and offers no import. */
export const signingInToArchive = (s: Pick<UiSlice, "archiveSignIn" | "appInfo">): boolean => s.archiveSignIn && s.appInfo === null;

export const createUiSlice: Slice<UiSlice> = (set, get) => ({
  notifications: [],
  connection: "connecting",
  appInfo: null,
  archiveSignIn: false,
  panel: "inspect",
  view: "tree",
  prefsOpen: false,
  searchOpen: false,
  amnesiaAllOpen: false,
  searchHits: [],
  searchError: null,
  helpOpen: false,
  paletteOpen: false,
  panes: initialPanes(),
  narrow: isNarrowWindow(),
  sessionsDrawerOpen: false,
  minimapOpen: loadMinimapOpen(isNarrowWindow()),
  renamingSessionId: null,
  removingSessionId: null,

  notify(level, message, sessionId = null) {
    const same = get().notifications.find((n) => n.level === level && n.message === message && n.sessionId === sessionId);
    const n: Notification = same ? { ...same, count: same.count + 1 } : { id: nextNotificationId++, level, message, sessionId, count: 1 };
    set((s) => {
      const others = s.notifications.filter((x) => x.id !== n.id);
      let list = [...others, n];
      // too many: the oldest that would go by itself goes first, then the oldest
      while (list.length > MAX_NOTIFICATIONS) {
        const drop = list.find((x) => x.level !== "error") ?? list[0]!;
        list = list.filter((x) => x !== drop);
        clearTimer(drop.id);
      }
      return { notifications: list };
    });
    const lifetime = NOTIFICATION_LIFETIME_MS[level];
    clearTimer(n.id);
    if (lifetime !== null) timers.set(n.id, setTimeout(() => get().dismissNotification(n.id), lifetime));
  },
  dismissNotification(id) {
    clearTimer(id);
    set((s) => ({ notifications: s.notifications.filter((n) => n.id !== id) }));
  },
  scopeNotifications(sessionId) {
    const keep = get().notifications.filter((n) => n.sessionId === null || n.sessionId === sessionId);
    for (const n of get().notifications) if (!keep.includes(n)) clearTimer(n.id);
    set({ notifications: keep });
  },
  setUi(patch) {
    set(patch);
  },
  setConnection(connection) {
    set({ connection });
  },
  setAppInfo(appInfo) {
    set({ appInfo });
  },
  setPanel(panel) {
    set({ panel });
  },
  setView(view) {
    set({ view });
  },
  setPane(which, px) {
    const value = clampPane(which, px);
    set((s) => ({ panes: { ...s.panes, [which]: value } }));
    savePref(`pane.${which}`, value);
  },
  setMinimapOpen(open) {
    set({ minimapOpen: open });
    savePref(minimapPref(get().narrow), open);
  },
  setNarrow(narrow) {
    if (narrow === get().narrow) return;
    set({ narrow, sessionsDrawerOpen: false, minimapOpen: loadMinimapOpen(narrow) });
  },
  setSessionsDrawer(sessionsDrawerOpen) {
    set({ sessionsDrawerOpen });
  },
  setRenaming(renamingSessionId) {
    set({ renamingSessionId });
  },
  setRemoving(removingSessionId) {
    set({ removingSessionId });
  },
});

function clearTimer(id: number): void {
  const t = timers.get(id);
  if (t !== undefined) clearTimeout(t);
  timers.delete(id);
}
