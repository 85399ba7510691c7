/**
 * The shell's zustand store, one store made of typed slices (sessions, open session, ui,
 * settings). Read it with narrow selectors: `useBonsai((s) => s.skeleton)`, and `useShallow`
 * for derived arrays. Features may keep their own local stores under features/.
 */
import { create } from "zustand";
import { createSessionsSlice } from "./sessions-slice";
import { createSessionSlice } from "./session-slice";
import { createUiSlice } from "./ui-slice";
import { createSettingsSlice } from "./settings-slice";
import type { BonsaiState } from "./types";

export type { BonsaiState } from "./types";

export const useBonsai = create<BonsaiState>()((...a) => ({
  ...createSessionsSlice(...a),
  ...createSessionSlice(...a),
  ...createUiSlice(...a),
  ...createSettingsSlice(...a),
}));
