/** What a store worker exposes, opened from what its host gave it (the database, write-through). */
import { openDatabase } from "../database";
import { SqliteSessionStore } from "../sqlite-session-store";
import type { StoreEventName } from "../session-store";
import type { Exposed } from "../worker-rpc/expose";
import { storeOperations, type StoreOperations } from "./operations";

export interface StoreWorkerData {
  dbPath: string;
  nativeBinding?: string;
  writeThrough: boolean;
}

/** the events a worker's store relays to its host's store */
export const RELAYED_EVENTS: readonly StoreEventName[] = ["entries-added", "session-updated", "follow-error"];

export function openStoreOperations(data: StoreWorkerData, emit: (name: string, payload: unknown) => void): Exposed<StoreOperations> {
  const store = new SqliteSessionStore(openDatabase({ path: data.dbPath, nativeBinding: data.nativeBinding }), undefined, { writeThrough: data.writeThrough });
  for (const name of RELAYED_EVENTS) store.on(name, (payload) => emit(name, payload));
  return { module: storeOperations(store), dispose: () => store.close() };
}
