import type { StateCreator } from "zustand";
import type { SessionsSlice } from "./sessions-slice";
import type { SessionSlice } from "./session-slice";
import type { UiSlice } from "./ui-slice";
import type { SettingsSlice } from "./settings-slice";
import type { WorkSlice } from "./work-slice";
import type { AmnesiaSlice } from "./amnesia-slice";
import type { ForeignSlice } from "./foreign-slice";

/** The whole store: the union of its slices. */
export type BonsaiState = SessionsSlice & SessionSlice & WorkSlice & AmnesiaSlice & ForeignSlice & UiSlice & SettingsSlice;

/** A slice creator that sees (and may call into) the whole store. */
export type Slice<T> = StateCreator<BonsaiState, [], [], T>;
