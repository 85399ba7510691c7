/** Light / dark / system theme from the settings, applied as <html data-theme>. */
import { useLayoutEffect, useSyncExternalStore } from "react";
import { useBonsai } from "../state/store";

const query = typeof window !== "undefined" && window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

function subscribe(cb: () => void): () => void {
  query?.addEventListener("change", cb);
  return () => query?.removeEventListener("change", cb);
}

function systemDark(): boolean {
  return query?.matches ?? false;
}

/** Whether the UI is dark right now (the setting, or the system's when it is "system"). */
export function useDarkTheme(): boolean {
  const theme = useBonsai((s) => s.settingsState?.settings.theme ?? "system");
  const sys = useSyncExternalStore(subscribe, systemDark, () => false);
  return theme === "dark" || (theme === "system" && sys);
}

/**
 * Keeps <html data-theme> in step with the setting (the shell's CSS variables follow it). A layout
 * effect: it lands before the effects that paint canvases from the palette (overview, minimap).
 */
export function useApplyTheme(): void {
  const theme = useBonsai((s) => s.settingsState?.settings.theme ?? "system");
  useLayoutEffect(() => {
    const root = document.documentElement;
    if (theme === "system") delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
}

/**
 * The next theme (system -> light -> dark -> system), saved in the settings; on a host where
 * nothing changes (a team archive) kept for this page only, as its settings do not change.
 */
export async function switchTheme(): Promise<void> {
  const s = useBonsai.getState();
  const state = s.settingsState;
  const theme = state?.settings.theme ?? "system";
  const next = theme === "system" ? "light" : theme === "light" ? "dark" : "system";
  if (s.appInfo?.readOnly !== undefined) {
    if (state) useBonsai.setState({ settingsState: { ...state, settings: { ...state.settings, theme: next } } });
    return;
  }
  const err = await s.updateSettings({ theme: next });
  if (err) s.notify("error", `The theme could not be changed: ${err}`);
}
