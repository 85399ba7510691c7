/**
 * The messages of the one worker RPC (expose.ts on the worker, client.ts on the caller's thread):
 * a call names one function of the exposed module with its arguments; the answer carries its value
 * or its error as a WireError (rebuilt as its registered class: core's registerWireErrors).
 */
import type { WireError } from "@bonsai/core";

/**
 * What a caller may pass inside an options argument beside the call's own fields: a cancel signal
 * and a progress callback. Neither crosses the thread boundary: the worker gives the function a
 * signal read from a shared flag and a callback that posts.
 */
export interface CallControl<P = unknown> {
  signal?: AbortSignal;
  onProgress?: (progress: P) => void;
}

/** caller -> worker */
export type RpcRequest =
  | {
      rpc: "call";
      id: number;
      name: string;
      args: unknown[];
      /** the index of the argument that carried the caller's signal and progress callback (taken out before posting) */
      control?: number;
      cancel: SharedArrayBuffer;
    }
  | { rpc: "close" };

/** worker -> caller */
export type RpcReply =
  | { rpc: "result"; id: number; ok: true; value: unknown }
  | { rpc: "result"; id: number; ok: false; error: WireError }
  | { rpc: "progress"; id: number; progress: unknown }
  | { rpc: "event"; name: string; payload: unknown }
  | { rpc: "closed" };

/** A module's functions as a worker exposes them: any plain object of functions. */
export type RpcModule = object;

/** The names of a module's functions. */
export type RpcName<M> = { [K in keyof M]: M[K] extends (...args: never[]) => unknown ? K : never }[keyof M] & string;
export type RpcArgs<M, K extends RpcName<M>> = M[K] extends (...args: infer A) => unknown ? A : never;
export type RpcResult<M, K extends RpcName<M>> = M[K] extends (...args: never[]) => infer R ? Awaited<R> : never;
