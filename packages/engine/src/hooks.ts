/**
 * The five hooks of triggers-and-hooks.md §6, from code (`registerHooks`) and from user hook modules
 * (`*.js` / `*.mjs` files of the hooks folder, loaded in file-name order).
 *
 * Runner semantics: handlers run sequentially in registration order. For the `session_before_*`
 * hooks a truthy return replaces the accumulated result (last truthy wins) and `cancel: true` returns
 * at once; for `session.compacting` the last truthy return wins; notifications ignore returns. A
 * handler that throws is reported (onError) and otherwise ignored.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { AgentMessage, BranchSummaryEntry, CompactionEntry, CompactionPreparation, SessionEntry } from "@bonsai/core";
import type { CompactionResult } from "./compact";

export interface SessionBeforeCompactEvent {
  type: "session_before_compact";
  preparation: CompactionPreparation;
  branchEntries: SessionEntry[];
  customInstructions?: string;
  signal: AbortSignal;
}
export interface SessionBeforeCompactResult {
  cancel?: boolean;
  compaction?: CompactionResult;
}
export interface SessionCompactingEvent {
  type: "session.compacting";
  sessionId: string;
  messages: AgentMessage[];
}
export interface SessionCompactingResult {
  context?: string[];
  prompt?: string;
  preserveData?: Record<string, unknown>;
}
export interface SessionCompactEvent {
  type: "session_compact";
  compactionEntry: CompactionEntry;
  fromExtension: boolean;
}
export interface TreePreparation {
  targetId: string;
  oldLeafId: string | null;
  commonAncestorId: string | null;
  entriesToSummarize: SessionEntry[];
  userWantsSummary: boolean;
}
export interface SessionBeforeTreeEvent {
  type: "session_before_tree";
  preparation: TreePreparation;
  signal: AbortSignal;
}
export interface SessionBeforeTreeResult {
  cancel?: boolean;
  summary?: { summary: string; details?: unknown };
}
export interface SessionTreeEvent {
  type: "session_tree";
  newLeafId: string | null;
  oldLeafId: string | null;
  summaryEntry?: BranchSummaryEntry;
  fromExtension?: boolean;
}

/** What every handler gets as its second argument. */
export interface HookContext {
  sessionId: string;
}

type Maybe<T> = T | undefined | void;
type Returns<T> = Maybe<T> | Promise<Maybe<T>>;

export interface HookHandlers {
  session_before_compact: (event: SessionBeforeCompactEvent, ctx: HookContext) => Returns<SessionBeforeCompactResult>;
  "session.compacting": (event: SessionCompactingEvent, ctx: HookContext) => Returns<SessionCompactingResult>;
  session_compact: (event: SessionCompactEvent, ctx: HookContext) => Returns<unknown>;
  session_before_tree: (event: SessionBeforeTreeEvent, ctx: HookContext) => Returns<SessionBeforeTreeResult>;
  session_tree: (event: SessionTreeEvent, ctx: HookContext) => Returns<unknown>;
}

export type HookName = keyof HookHandlers;
export const HOOK_NAMES: readonly HookName[] = ["session_before_compact", "session.compacting", "session_compact", "session_before_tree", "session_tree"];

export interface HookErrorInfo {
  /** where the handler came from: the module path, or the name given to registerHooks */
  source: string;
  event: HookName | "load";
  error: string;
}

interface Registered<K extends HookName> {
  source: string;
  handler: HookHandlers[K];
}

/** The API a user hook module's default export receives. */
export interface HookModuleApi {
  on<K extends HookName>(event: K, handler: HookHandlers[K]): void;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

export class HookRunner {
  readonly #handlers = new Map<HookName, Registered<HookName>[]>();

  constructor(private readonly onError: (info: HookErrorInfo) => void) {}

  /** Registers handlers from code; returns a function that removes them again. */
  register(source: string, handlers: Partial<HookHandlers>): () => void {
    const added: [HookName, Registered<HookName>][] = [];
    for (const name of HOOK_NAMES) {
      const handler = handlers[name];
      if (typeof handler !== "function") continue;
      const entry = { source, handler } as Registered<HookName>;
      const list = this.#handlers.get(name) ?? [];
      list.push(entry);
      this.#handlers.set(name, list);
      added.push([name, entry]);
    }
    return () => {
      for (const [name, entry] of added) {
        const list = this.#handlers.get(name);
        const i = list?.indexOf(entry) ?? -1;
        if (list && i >= 0) list.splice(i, 1);
      }
    };
  }

  has(name: HookName): boolean {
    return (this.#handlers.get(name)?.length ?? 0) > 0;
  }

  async #call<K extends HookName>(name: K, event: Parameters<HookHandlers[K]>[0], ctx: HookContext, each: (result: unknown) => "stop" | void): Promise<void> {
    for (const { source, handler } of [...(this.#handlers.get(name) ?? [])]) {
      let result: unknown;
      try {
        result = await (handler as (e: unknown, c: HookContext) => unknown)(event, ctx);
      } catch (error) {
        this.onError({ source, event: name, error: describe(error) });
        continue;
      }
      if (each(result) === "stop") return;
    }
  }

  /** `session_before_*`: the last truthy result wins; `cancel: true` stops at once. */
  async #before<R extends { cancel?: boolean }>(name: "session_before_compact" | "session_before_tree", event: SessionBeforeCompactEvent | SessionBeforeTreeEvent, ctx: HookContext): Promise<R | undefined> {
    let acc: R | undefined;
    await this.#call(name, event as never, ctx, (r) => {
      if (!r || typeof r !== "object") return;
      acc = r as R;
      if (acc.cancel) return "stop";
    });
    return acc;
  }

  beforeCompact(event: SessionBeforeCompactEvent, ctx: HookContext): Promise<SessionBeforeCompactResult | undefined> {
    return this.#before<SessionBeforeCompactResult>("session_before_compact", event, ctx);
  }

  async compacting(event: SessionCompactingEvent, ctx: HookContext): Promise<SessionCompactingResult | undefined> {
    let acc: SessionCompactingResult | undefined;
    await this.#call("session.compacting", event, ctx, (r) => {
      if (r && typeof r === "object") acc = r as SessionCompactingResult;
    });
    return acc;
  }

  async compacted(event: SessionCompactEvent, ctx: HookContext): Promise<void> {
    await this.#call("session_compact", event, ctx, () => undefined);
  }

  beforeTree(event: SessionBeforeTreeEvent, ctx: HookContext): Promise<SessionBeforeTreeResult | undefined> {
    return this.#before<SessionBeforeTreeResult>("session_before_tree", event, ctx);
  }

  async tree(event: SessionTreeEvent, ctx: HookContext): Promise<void> {
    await this.#call("session_tree", event, ctx, () => undefined);
  }

  /**
   * Loads user hook modules from `dir` (missing folder = none). A module's default export is either a
   * function receiving `{on(event, handler)}` or an object mapping hook names to handlers. Returns the
   * files loaded; a module that fails to load is reported and skipped.
   */
  async loadDirectory(dir: string): Promise<string[]> {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => /\.(m?js)$/.test(n)).sort();
    } catch {
      return [];
    }
    const loaded: string[] = [];
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
        const exported = mod.default;
        if (typeof exported === "function") {
          const list: [HookName, unknown][] = [];
          await (exported as (api: HookModuleApi) => unknown)({
            on: (event, handler) => {
              if (!HOOK_NAMES.includes(event)) throw new Error(`unknown hook "${String(event)}" (known: ${HOOK_NAMES.join(", ")})`);
              list.push([event, handler]);
            },
          });
          // each registration keeps its own order, so register one by one
          for (const [event, handler] of list) this.register(file, { [event]: handler } as Partial<HookHandlers>);
        } else if (exported && typeof exported === "object") {
          const unknown = Object.keys(exported).filter((k) => !HOOK_NAMES.includes(k as HookName));
          if (unknown.length > 0) throw new Error(`unknown hook${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `"${k}"`).join(", ")}`);
          this.register(file, exported as Partial<HookHandlers>);
        } else {
          throw new Error("the module has no default export (a function or an object of hook handlers)");
        }
        loaded.push(file);
      } catch (error) {
        this.onError({ source: file, event: "load", error: describe(error) });
      }
    }
    return loaded;
  }
}
