/**
 * Handlers over the engine: compaction (plan, run, dry run, commit, abort), navigation, pruning,
 * prompts, settings and the API key. Thin: the engine does the work and emits the events.
 */
import {
  contextChangeOf,
  contextFigureOf,
  contextOf,
  estimateMessagesTokens,
  nothingToPruneReason,
  planPruning,
  type CompactionEntry,
  type SessionEntry,
} from "@bonsai/core";
import type { CompactionPlanner, Engine } from "@bonsai/engine";
import { IpcError, type CompactionPlan, type EventSink, type Handlers, type SettingsState } from "@bonsai/ipc";
import type { HostStore, StoreReads } from "@bonsai/store";
import type { HostDialogs } from "./dialogs";
import { guardSettingsPatch, hostSettingsState, type HostSettingsInfo } from "./host-policy";
import { resolveApiKey, type KeyProvider } from "./keys";
import { contextFigureAt } from "./context-preview";
import { requireWritable } from "./read-only";
import type { UndoLog } from "./undo";
import { outputBytes, pruneFigures } from "./prune-figures";
import { requireSession } from "./session-handlers";
import { testConnection } from "./test-connection";

type EngineHandlerNames =
  | "planCompaction"
  | "compact"
  | "commitCompaction"
  | "abort"
  | "navigate"
  | "planPrune"
  | "applyPrune"
  | "restorePruned"
  | "prompt"
  | "getSettings"
  | "setSettings"
  | "pickSettingsFolder"
  | "setApiKey"
  | "clearApiKey"
  | "testConnection";

export interface EngineHandlerDeps {
  store: HostStore;
  engine: Engine;
  keys: KeyProvider;
  emit: EventSink;
  env: NodeJS.ProcessEnv;
  /** requestIds of the running calls, by session, for the engine's events */
  requests: RequestTracker;
  /** compaction planning (a worker pool in the app and `bonsai serve`, inline in tests) */
  planner: CompactionPlanner;
  /** the desktop app's native dialogs (folder picker, confirmations); absent in browser mode */
  dialogs?: HostDialogs;
  /** how host settings change on the host (the `bonsai config set` command, the database) */
  hostSettings: HostSettingsInfo;
  /** the change each session can undo */
  undos: UndoLog;
}

/** Which client request a session's running compaction / branch summary / turn belongs to. */
export class RequestTracker {
  readonly #ids = new Map<string, string | null>();
  set(kind: "compaction" | "branchSummary" | "prompt", sessionId: string, requestId: string | undefined): void {
    this.#ids.set(`${kind}:${sessionId}`, requestId ?? null);
  }
  get(kind: "compaction" | "branchSummary" | "prompt", sessionId: string): string | null {
    return this.#ids.get(`${kind}:${sessionId}`) ?? null;
  }
  /** a call of this kind is running on the session */
  has(kind: "compaction" | "branchSummary" | "prompt", sessionId: string): boolean {
    return this.#ids.has(`${kind}:${sessionId}`);
  }
  clear(kind: "compaction" | "branchSummary" | "prompt", sessionId: string): void {
    this.#ids.delete(`${kind}:${sessionId}`);
  }
}

/** The engine works at the session's current leaf: a different leaf is a conflict, not a silent switch. */
function requireCurrentLeaf(store: StoreReads, sessionId: string, leafId: string | null | undefined, what: string): void {
  if (leafId === undefined) return;
  const current = store.getLeaf(sessionId);
  if (leafId !== current) throw new IpcError("conflict", `${what} runs at the session's current leaf (${current ?? "none"}); switch to ${leafId ?? "the root"} first`);
}

export function engineHandlers(deps: EngineHandlerDeps): Pick<Handlers, EngineHandlerNames> {
  const { store, engine, keys, requests, undos } = deps;
  /** the settings as persisted now: `bonsai config set` on the host takes effect from the next call */
  const fresh = () => engine.reloadSettings();

  const settingsState = (): SettingsState => {
    const settings = engine.getSettings();
    const { source } = resolveApiKey(keys, settings.model.apiKeyEnv, deps.env);
    return { settings, hasApiKey: source !== null, apiKeySource: source, apiKeyStorage: keys.storage, hostSettings: hostSettingsState(deps.hostSettings, deps.dialogs) };
  };

  return {
    planCompaction: async ({ sessionId, leafId }) => {
      requireSession(store, sessionId);
      const leaf = leafId === undefined ? store.getLeaf(sessionId) : leafId;
      const empty: CompactionPlan = {
        sessionId,
        leafId: leaf,
        possible: false,
        reason: null,
        firstKeptEntryId: null,
        summarizedEntryIds: [],
        turnPrefixEntryIds: [],
        keptEntryIds: [],
        isSplitTurn: false,
        contextTokens: leaf === null ? 0 : estimateContext(store, sessionId, undefined, leaf),
        tokensBefore: 0,
        estimatedTokensAfter: 0,
        hasPreviousSummary: false,
        readFiles: [],
        modifiedFiles: [],
      };
      if (leaf === null) return { ...empty, reason: "The session is empty" };
      // loading and planning a long branch is heavy: the planner runs it on a worker thread when the host has one
      const plan = await deps.planner.plan({ sessionId, leafId: leaf, settings: fresh().compaction, withBranchEntries: false });
      if (plan.pathLength === 0) return { ...empty, reason: "The session is empty" };
      if (plan.lastEntryIsCompaction) return { ...empty, reason: "Already compacted" };
      const prep = plan.preparation;
      if (!prep) return { ...empty, reason: "Nothing to compact (session too small)" };
      const nothing = prep.summarizeEntryIds.length === 0 && prep.turnPrefixEntryIds.length === 0 && !prep.previousSummary;
      return {
        ...empty,
        possible: !nothing,
        reason: nothing ? "Nothing to compact (session too small)" : null,
        firstKeptEntryId: prep.firstKeptEntryId,
        summarizedEntryIds: prep.summarizeEntryIds,
        turnPrefixEntryIds: prep.turnPrefixEntryIds,
        keptEntryIds: prep.keptEntryIds,
        isSplitTurn: prep.isSplitTurn,
        tokensBefore: prep.tokensBefore,
        estimatedTokensAfter: estimateMessagesTokens(prep.recentMessages),
        hasPreviousSummary: prep.previousSummary !== undefined,
        readFiles: [...prep.fileOps.read].sort(),
        modifiedFiles: [...new Set([...prep.fileOps.edited, ...prep.fileOps.written])].sort(),
      };
    },

    compact: async ({ sessionId, leafId, instructions, dryRun, requestId }) => {
      requireWritable(store, sessionId);
      requireCurrentLeaf(store, sessionId, leafId, "Compaction");
      fresh();
      const before = estimateContext(store, sessionId);
      const leafBefore = store.getLeaf(sessionId);
      requests.set("compaction", sessionId, requestId);
      try {
        const outcome = await engine.compact(sessionId, { instructions, dryRun });
        if (outcome.entry) undos.record(sessionId, { kind: "compaction", entryId: outcome.entry.id, before: leafBefore, after: outcome.entry.id });
        const r = outcome.result;
        const after = outcome.entry ? estimateContext(store, sessionId) : estimateContext(store, sessionId, r);
        return {
          jobId: requestId ?? `${sessionId}:${Date.now()}`,
          result: {
            summary: r.summary,
            shortSummary: r.shortSummary,
            firstKeptEntryId: r.firstKeptEntryId,
            tokensBefore: r.tokensBefore,
            details: r.details,
            preserveData: r.preserveData,
            fromExtension: outcome.fromExtension,
            offline: (r.details as { summarizer?: unknown } | undefined)?.summarizer === "offline",
          },
          entryId: outcome.entry?.id ?? null,
          contextTokensBefore: before,
          contextTokensAfter: Math.max(0, after),
        };
      } finally {
        requests.clear("compaction", sessionId);
      }
    },

    commitCompaction: async ({ sessionId, leafId, result }) => {
      requireWritable(store, sessionId);
      const { fromExtension: _f, offline: _o, ...plain } = result;
      const leafBefore = store.getLeaf(sessionId);
      const outcome = await engine.commitCompaction(sessionId, plain, leafId);
      if (!outcome.entry) throw new IpcError("internal", "the compaction was not appended");
      undos.record(sessionId, { kind: "compaction", entryId: outcome.entry.id, before: leafBefore, after: outcome.entry.id });
      return { entryId: outcome.entry.id };
    },

    abort: ({ sessionId, what = "all" }) => {
      requireSession(store, sessionId);
      const running =
        (what === "all" || what === "compaction" ? engine.isCompacting(sessionId) : false) ||
        (what === "all" || what === "prompt" ? engine.isTurnRunning(sessionId) : false) ||
        ((what === "all" || what === "branchSummary") && requests.has("branchSummary", sessionId));
      if (what === "all" || what === "compaction") engine.abortCompaction(sessionId);
      if (what === "all" || what === "prompt") engine.abortTurn(sessionId);
      if (what === "all" || what === "branchSummary") engine.abortBranchSummary(sessionId);
      return { aborted: running };
    },

    navigate: async ({ sessionId, targetId, summarize, instructions, requestId }) => {
      // moving the leaf alone writes nothing (any session); a branch summary is a write
      if (summarize) requireWritable(store, sessionId);
      else requireSession(store, sessionId);
      if (!store.getEntry(sessionId, targetId)) throw new IpcError("not_found", `no entry ${targetId} in session ${sessionId}`);
      fresh();
      const leafBefore = store.getLeaf(sessionId);
      requests.set("branchSummary", sessionId, requestId);
      try {
        const out = await engine.navigateTree(sessionId, targetId, { summarize, instructions });
        if (!out.cancelled) undos.record(sessionId, { kind: "branch", entryId: out.summaryEntry?.id ?? null, before: leafBefore, after: store.getLeaf(sessionId) });
        return { leafId: out.leafId, editorText: out.editorText ?? null, summaryEntryId: out.summaryEntry?.id ?? null, cancelled: out.cancelled };
      } finally {
        requests.clear("branchSummary", sessionId);
      }
    },

    planPrune: ({ sessionId, leafId }) => {
      requireSession(store, sessionId);
      const leaf = leafId === undefined ? store.getLeaf(sessionId) : leafId;
      const path = leaf === null ? [] : store.getPath(sessionId, leaf);
      const config = engine.pruneConfig();
      const plan = planPruning(path, config);
      return {
        sessionId,
        items: plan.candidates.map((c) => ({ entryId: c.entryId, toolName: c.toolName, tokens: c.tokens })),
        tokensSaved: plan.tokensSaved,
        nothingReason: nothingToPruneReason(plan, config),
        ...pruneFigures(path, leaf, plan, config),
      };
    },

    applyPrune: async ({ sessionId, leafId }) => {
      requireWritable(store, sessionId);
      requireCurrentLeaf(store, sessionId, leafId, "Pruning");
      const leaf = store.getLeaf(sessionId);
      const before = leaf === null ? [] : store.getPath(sessionId, leaf);
      const out = await engine.pruneToolOutputs(sessionId);
      if (out.entryIds.length > 0) undos.record(sessionId, { kind: "prune", entryId: null, before: leaf, after: leaf, prunedEntryIds: out.entryIds });
      const after = leaf === null ? [] : store.getPath(sessionId, leaf);
      const hidden = new Set(out.entryIds);
      let bytesHidden = 0;
      for (const e of before) if (hidden.has(e.id)) bytesHidden += outputBytes(e);
      return {
        prunedEntryIds: out.entryIds,
        tokensSaved: out.tokensSaved,
        ...contextChangeOf(before, after, leaf, engine.pruneConfig().minimumSavings),
        bytesHidden,
      };
    },

    restorePruned: async ({ sessionId, entryIds }) => {
      requireWritable(store, sessionId);
      const before = new Set(store.listPruned(sessionId).map((p) => p.entryId));
      await deps.store.restorePruned(sessionId, entryIds);
      const after = new Set(store.listPruned(sessionId).map((p) => p.entryId));
      return { restoredEntryIds: [...before].filter((id) => !after.has(id)) };
    },

    prompt: async ({ sessionId, text, requestId }) => {
      requireWritable(store, sessionId);
      fresh();
      requests.set("prompt", sessionId, requestId);
      try {
        const out = await engine.prompt(sessionId, text);
        return {
          entryIds: [out.userEntryId, ...(out.assistantEntryId ? [out.assistantEntryId] : [])],
          stopReason: out.message.stopReason,
          errorMessage: out.message.errorMessage ?? null,
        };
      } finally {
        requests.clear("prompt", sessionId);
      }
    },

    getSettings: () => {
      fresh();
      return settingsState();
    },
    setSettings: async ({ patch }) => {
      await guardSettingsPatch(patch, fresh(), deps.dialogs, deps.hostSettings);
      engine.updateSettings(patch);
      return settingsState();
    },
    pickSettingsFolder: async ({ field }) => {
      if (!deps.dialogs) throw new IpcError("unavailable", "browser mode has no folder picker: folders are set on the host with `bonsai config set`");
      const folder = await deps.dialogs.chooseFolder(field);
      if (folder === null) return { cancelled: true, state: settingsState() };
      // the folder comes from the main process's picker (the user chose it), not from the window
      const current = fresh();
      engine.updateSettings(field === "hooksDir" ? { hooksDir: folder } : { sessionDirs: [...new Set([...current.sessionDirs, folder])] });
      return { cancelled: false, state: settingsState() };
    },
    setApiKey: async ({ key }) => {
      await keys.set(key);
      return settingsState();
    },
    clearApiKey: async () => {
      await keys.clear();
      return settingsState();
    },
    testConnection: () => {
      const model = fresh().model;
      return testConnection(model, resolveApiKey(keys, model.apiKeyEnv, deps.env).key);
    },
  };
}

/**
 * What the model sees from the current leaf, in the figure every panel shows (core contextFigureOf,
 * compaction.md §2.6); with `compaction`, as if that compaction were appended at the leaf (the dry
 * run's "after": a usage reported before it no longer measures the context, so the estimate).
 */
function estimateContext(store: StoreReads, sessionId: string, compaction?: { summary: string; firstKeptEntryId: string; tokensBefore: number }, at?: string): number {
  const leaf = at ?? store.getLeaf(sessionId);
  if (leaf === null) return 0;
  if (!compaction) return contextFigureAt(store, sessionId, leaf).contextTokens;
  const entries: SessionEntry[] = store.getContextEntries(sessionId, leaf);
  let target = leaf;
  if (compaction) {
    target = "bonsai-preview-compaction";
    const preview: CompactionEntry = { type: "compaction", id: target, parentId: leaf, timestamp: new Date().toISOString(), ...compaction };
    entries.push(preview);
  }
  return contextFigureOf(contextOf(entries, target)).contextTokens;
}
