/**
 * The renderer side of the contract: a typed API object built from any raw bridge (the Electron
 * preload's window.bonsai, or the WebSocket client). Calls resolve with the method's output or
 * reject with an IpcError.
 */
import type { EventName, EventPayload, MethodInput, MethodName, MethodOutput } from "./contract";
import { IpcError, type CallResult } from "./errors";
import { METHOD_NAMES } from "./names";

export type EventListener = (event: string, payload: unknown) => void;

/** What a transport provides: one call function per method (returning the envelope) and an event feed. */
export type RawBridge = {
  [M in MethodName]: (input: unknown) => Promise<CallResult>;
} & {
  /** subscribe to every pushed event; returns the unsubscribe function */
  subscribe(listener: EventListener): () => void;
};

type CallFn<M extends MethodName> = Record<string, never> extends MethodInput<M>
  ? (input?: MethodInput<M>) => Promise<MethodOutput<M>>
  : (input: MethodInput<M>) => Promise<MethodOutput<M>>;

export type BonsaiApi = { [M in MethodName]: CallFn<M> } & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

export function createApi(raw: RawBridge): BonsaiApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let unsubscribeRaw: (() => void) | null = null;

  const api: Record<string, unknown> = {};
  for (const name of METHOD_NAMES) {
    api[name] = async (input?: unknown) => {
      const result = await raw[name](input ?? {});
      if (result.ok) return result.value;
      throw IpcError.fromData(result.error);
    };
  }
  api.on = (event: string, listener: (payload: unknown) => void) => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    unsubscribeRaw ??= raw.subscribe((name, payload) => {
      for (const l of listeners.get(name) ?? []) {
        try {
          l(payload);
        } catch (err) {
          // one failing listener must not starve the others; surface it as an unhandled rejection
          void Promise.reject(new Error(`a listener of ${name} failed: ${err instanceof Error ? err.message : String(err)}`));
        }
      }
    });
    return () => {
      set.delete(listener);
    };
  };
  return api as BonsaiApi;
}
