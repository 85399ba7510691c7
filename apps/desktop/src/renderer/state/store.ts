/**
 * The renderer's one zustand store (DESIGN rule 12), made of typed slices: the session list and
 * imports, the open session and its tree, the work on it (context, compaction, pruning, undo), the
 * window's chrome (notifications, dialogs, panes) and settings. Read it with narrow selectors:
 * `useBonsai((s) => s.skeleton)`, and `useShallow` for derived arrays.
 */
import { create } from "zustand";
import { createSessionsSlice } from "./sessions-slice";
import { createSessionSlice } from "./session-slice";
import { createUiSlice } from "./ui-slice";
import { createSettingsSlice } from "./settings-slice";
import { createWorkSlice } from "./work-slice";
import { createAmnesiaSlice } from "./amnesia-slice";
import { createForeignSlice } from "./foreign-slice";
import type { BonsaiState } from "./types";

export type { BonsaiState } from "./types";

export const useBonsai = create<BonsaiState>()((...a) => ({
  ...createSessionsSlice(...a),
  ...createSessionSlice(...a),
  ...createWorkSlice(...a),
  ...createAmnesiaSlice(...a),
  ...createForeignSlice(...a),
  ...createUiSlice(...a),
  ...createSettingsSlice(...a),
}));

/** Unique id for a long-running call, echoed in its events. */
export function newRequestId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
