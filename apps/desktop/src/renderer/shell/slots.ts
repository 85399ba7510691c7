/**
 * Where features mount into the shell. features/index.ts exports one `Features` object; every
 * slot is optional and the shell has a fallback for each.
 *
 *   SessionView  the main area while a session is open (default: the shell's simple tree)
 *   HeaderItems  controls at the right of the header bar (search, preferences, theme, ...)
 *   Overlays     rendered once at the root: dialogs, panels, keyboard shortcuts
 *
 * Features read the shell store with `useBonsai(selector)` (state/store.ts), call the backend
 * with `api()` (lib/api.ts), and subscribe to events with `api().on(name, listener)`.
 */
import type { ComponentType } from "react";
import type { TreeSkeleton } from "@bonsai/core";
import type { SessionSummaryDto } from "@bonsai/ipc";

export interface SessionViewProps {
  sessionId: string;
  session: SessionSummaryDto;
  skeleton: TreeSkeleton;
}

export interface Features {
  SessionView?: ComponentType<SessionViewProps>;
  HeaderItems?: ComponentType;
  Overlays?: ComponentType;
}
