/**
 * Runs the what-if replay for the candidate settings as they are typed. At most one request is in
 * flight: while it runs, only the newest settings wait, so the chart follows the typing without a
 * queue of stale replays; the replay itself runs in the backend (the session's path is kept there).
 * `inputAt` is when the answered settings were typed, for the "updated in N ms" measure.
 */
import { useEffect, useRef, useState } from "react";
import type { WhatIfSettings } from "@bonsai/core";
import type { WhatIfResult } from "@bonsai/ipc";
import { api, errorMessage } from "../../lib/api";

export interface WhatIfState {
  result: WhatIfResult | null;
  error: string | null;
  /** performance.now() when the settings the result answers were typed */
  inputAt: number;
  running: boolean;
}

interface Job {
  settings: WhatIfSettings;
  sessionIds: string[];
  window: "session" | "fixed";
  at: number;
}

/** `window`: each session on its own model's window ("session"), or every one on settings.contextWindow ("fixed") */
export function useWhatIf(settings: WhatIfSettings | null, sessionIds: readonly string[], window: "session" | "fixed" = "session"): WhatIfState {
  const [state, setState] = useState<WhatIfState>({ result: null, error: null, inputAt: 0, running: false });
  const pending = useRef<Job | null>(null);
  const busy = useRef(false);
  const alive = useRef(true);
  const ids = sessionIds.join("\n");

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  useEffect(() => {
    if (!settings || ids === "") return;
    pending.current = { settings, sessionIds: ids.split("\n"), window, at: performance.now() };
    const pump = async (): Promise<void> => {
      if (busy.current || !pending.current) return;
      const job = pending.current;
      pending.current = null;
      busy.current = true;
      setState((s) => ({ ...s, running: true }));
      try {
        const result = await api().whatIf({ sessionIds: job.sessionIds, settings: job.settings, window: job.window });
        if (alive.current) setState({ result, error: null, inputAt: job.at, running: pending.current !== null });
      } catch (err) {
        if (alive.current) setState((s) => ({ ...s, error: errorMessage(err), running: false }));
      } finally {
        busy.current = false;
        if (alive.current) void pump();
      }
    };
    void pump();
  }, [settings, ids, window]);

  return state;
}
