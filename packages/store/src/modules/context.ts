/**
 * What every store module works over: the connection and its prepared statements, the session rows,
 * the clock and ids, the events, the source files' sync and locks, and the little state the store
 * keeps in memory. The modules beside this file are plain functions of a StoreContext; openStore
 * (sqlite-session-store.ts) builds one and composes them.
 */
import { EventEmitter } from "node:events";
import type Database from "better-sqlite3";
import type { RandomSource, SkeletonNode } from "@bonsai/core";
import type { SessionAgents } from "../foreign/agents";
import type { Statements } from "../reads/path";
import type { SkeletonState } from "../reads/skeleton-cache";
import type { SessionRows } from "../reads/sessions";
import type { StoreReader } from "../store-reader";
import type { Follower, StoreEventName, StoreEvents, StoreListener } from "../session-store";
import type { FaultHook } from "../source/faults";
import type { SessionLocks } from "../source/session-lock";
import type { SourceSync } from "../source/source-sync";

/** The store's events, typed. */
export class StoreEventBus {
  readonly #emitter = new EventEmitter();
  /** listeners of "entries written" (rows of entries inserted or changed): the search indexer */
  readonly #written = new Set<() => void>();

  constructor() {
    this.#emitter.setMaxListeners(100);
  }

  on<K extends StoreEventName>(event: K, listener: StoreListener<K>): () => void {
    this.#emitter.on(event, listener);
    return () => this.off(event, listener);
  }

  off<K extends StoreEventName>(event: K, listener: StoreListener<K>): void {
    this.#emitter.off(event, listener);
  }

  emit<K extends StoreEventName>(event: K, payload: StoreEvents[K]): void {
    this.#emitter.emit(event, payload);
  }

  listens(event: StoreEventName): boolean {
    return this.#emitter.listenerCount(event) > 0;
  }

  /** Called after entry rows were written (their search index is due). */
  onEntriesWritten(listener: () => void): void {
    this.#written.add(listener);
  }

  entriesWritten(): void {
    for (const l of this.#written) l();
  }

  removeAll(): void {
    this.#emitter.removeAllListeners();
    this.#written.clear();
  }
}

export interface StoreContext {
  readonly db: Database.Database;
  readonly statements: Statements;
  readonly sessions: SessionRows;
  /** which agent wrote each session (foreign/agents.ts) */
  readonly agents: SessionAgents;
  /** the reads of paths the writes check (src/reads/ through the read half of the store) */
  readonly reader: Pick<StoreReader, "isOnPath" | "getPath">;
  /** ids and the clock of new entries */
  readonly random: RandomSource;
  readonly events: StoreEventBus;
  /** every read and write of the sessions' source files (src/source/) */
  readonly files: SourceSync;
  /** one writer per session across Bonsai processes (source/session-lock.ts) */
  readonly locks: SessionLocks;
  /** OpenStoreOptions.fault (tests only) */
  readonly fault: FaultHook | undefined;
  /** OpenStoreOptions.backgroundIndexing */
  readonly backgroundIndexing: boolean;
  /** what the store keeps in memory between calls */
  readonly state: StoreState;
}

/** A skeleton held in memory (skeletons.ts): the state its rows were read in, its nodes, its packed JSON for one leaf. */
export interface HeldSkeleton {
  state: SkeletonState;
  nodes?: SkeletonNode[];
  /** `keep`: stores it in the database for the next start, until that has run once */
  packed?: { leafId: string | null; json: string; keep: (() => void) | null };
}

export interface StoreState {
  closed: boolean;
  /** the skeletons read last, by session (skeletons.ts: a 100,000-entry session takes a noticeable moment to read) */
  readonly skeletons: Map<string, HeldSkeleton>;
  /** the background indexer (search.ts) */
  indexingScheduled: boolean;
  /** background indexing waits until then (Date.now() ms) */
  indexingQuietUntil: number;
  /** the followers follow() started and not yet closed (follow.ts) */
  readonly followers: Set<Follower>;
}

export function newStoreState(): StoreState {
  return { closed: false, skeletons: new Map(), indexingScheduled: false, indexingQuietUntil: 0, followers: new Set() };
}

/** A prepared statement of the store's connection (prepared once). */
export function sql(ctx: StoreContext, text: string): Database.Statement {
  return ctx.statements.get(text);
}

export function nowIso(): string {
  return new Date().toISOString();
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
