import type { StateCreator } from "zustand";
import type { SessionsSlice } from "./sessions-slice";
import type { SessionSlice } from "./session-slice";
import type { UiSlice } from "./ui-slice";
import type { SettingsSlice } from "./settings-slice";

/** The whole shell store: the union of its slices. */
export type BonsaiState = SessionsSlice & SessionSlice & UiSlice & SettingsSlice;

/** A slice creator that sees (and may call into) the whole store. */
export type Slice<T> = StateCreator<BonsaiState, [], [], T>;
