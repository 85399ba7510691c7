/** Settings as the backend holds them (validated there); `hasApiKey` instead of the key. */
import type { SettingsPatch, SettingsState } from "@bonsai/ipc";
import { api, errorMessage, isUnavailable } from "../lib/api";
import type { Slice } from "./types";

export interface SettingsSlice {
  settingsState: SettingsState | null;
  loadSettings(): Promise<void>;
  /** apply a patch; resolves with the error message when the backend refuses it (nothing changes then) */
  updateSettings(patch: SettingsPatch): Promise<string | null>;
}

export const createSettingsSlice: Slice<SettingsSlice> = (set, get) => ({
  settingsState: null,
  async loadSettings() {
    try {
      set({ settingsState: await api().getSettings() });
    } catch (err) {
      if (!isUnavailable(err)) get().notify("error", `Could not load settings: ${errorMessage(err)}`);
    }
  },
  async updateSettings(patch) {
    try {
      set({ settingsState: await api().setSettings({ patch }) });
      return null;
    } catch (err) {
      return errorMessage(err);
    }
  },
});
