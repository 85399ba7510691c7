/**
 * DTO schemas shared by the contract: what crosses between renderer and backend.
 * Every shape here is a zod schema; its TypeScript type is derived with z.infer, and where core
 * already names the type (PackedSkeleton, BonsaiSettings, SessionEntry) a compile-time check below
 * keeps the two in step.
 */
import { z } from "zod";
import { agree, type Same } from "./type-checks";
import { MAX_COMMITTED_SUMMARY_CHARS, MAX_SHORT_SUMMARY_CHARS, type AmnesiaOverview, type AmnesiaReport, type BonsaiSettings, type IdentifierUse, type PackedSkeleton, type SessionEntry, type WhatIfSettings } from "@bonsai/core";
import { fitsUtf8 } from "./utf8";

// ---------------------------------------------------------------- primitives

/** Session and entry ids: non-empty, bounded, no control characters. */
export const idSchema = z
  .string()
  .min(1, "id must not be empty")
  .max(200, "id is longer than 200 characters")
  .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 32), "id contains control characters");

/** A leaf id: an entry id, or null for "before the first entry". Absent = the session's current leaf. */
export const leafIdSchema = idSchema.nullable();

const count = z.number().int().nonnegative();
const tokens = z.number().nonnegative();

// ---------------------------------------------------------------- sessions

export const sessionSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  cwd: z.string(),
  /** ISO timestamp of the session header */
  createdAt: z.string(),
  /** ISO timestamp of the newest entry (or of the import) */
  updatedAt: z.string(),
  entryCount: count,
  leafId: z.string().nullable(),
  /** the JSONL file it was imported from (write-through target), null for uploaded contents */
  sourcePath: z.string().nullable(),
  /**
   * Set when changes no longer go to sourcePath (the file or its folder is read-only, or
   * write-through is off): the reason in words, e.g. "the source file is read-only; export to write
   * the changes to a file". Absent while changes are written through.
   */
  detached: z.string().optional(),
  /** the agent that wrote it */
  agent: z.enum(["pi", "omp", "claude-code", "codex"]),
  /** compaction entries in the session (all branches) */
  compactionCount: count,
  /**
   * Set for sessions Bonsai never writes (Claude Code, Codex): why, in words. Compaction, pruning,
   * branch summaries, labels and prompts are refused; continueInPi makes a pi copy that takes them.
   */
  readOnly: z.string().optional(),
  /** the session it was spawned from or continues (a sub-agent's parent, a pi copy's source), when known */
  parentSession: z.string().nullable(),
  /** the title was set in Bonsai (setSessionTitle); it never goes into the agent's file */
  customTitle: z.boolean(),
  /** branch tips (entries without children): 1 for a session without branches; null while not counted yet */
  branches: count.nullable(),
  /**
   * what the model saw from the current leaf (core contextFigureOf: the last reported usage plus the
   * estimate after it, else the estimate); null while not computed yet
   */
  contextTokens: tokens.nullable(),
  /** the estimate of the leaf's messages in the file (no system prompt, no tools); null while not computed yet */
  estimatedTokens: tokens.nullable(),
  /** on a team archive (`bonsai team serve`): the project the session was pushed to, who pushed it and when */
  archive: z.object({ project: z.string(), pushedBy: z.string(), pushedAt: z.string() }).optional(),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

// ---------------------------------------------------------------- uploads

/**
 * A file picked or dropped in the window travels to the backend in chunks (beginUpload,
 * uploadChunk, then importSessions{uploads}): never whole in one frame or one string. Chunks are
 * base64 (any bytes, no UTF-8 sequence cut in two) of at most UPLOAD_CHUNK_BYTES.
 */
export const UPLOAD_CHUNK_BYTES = 256 * 1024;
/** The largest file an upload takes (the store reads a session file into memory to import it). */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024 * 1024;
/** base64 of at most UPLOAD_CHUNK_BYTES */
export const uploadChunkDataSchema = z
  .string()
  .min(1, "the chunk is empty")
  .max(Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4, `a chunk holds at most ${UPLOAD_CHUNK_BYTES} bytes`)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/u, "a chunk is base64");
export const uploadIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/u, "not an upload id");

/** "Continue in pi": the pi copy written (in pi's sessions folder) and imported. */
export const piCopySchema = z.object({
  /** the stored pi session to open */
  sessionId: z.string(),
  /** where the pi session file was written */
  file: z.string(),
  entryCount: count,
  /** what the copy left out */
  omitted: z.object({ developerMessages: count, orphanToolResults: count, metadata: count }),
  /** one sentence for the user: where it was written and what was left out */
  message: z.string(),
});
export type PiCopy = z.infer<typeof piCopySchema>;
/** A folder where an agent keeps its sessions, found on this machine. */
export const sessionFolderSchema = z.object({
  /** names it in the page (a key for lists) */
  key: z.string(),
  /** the agent, in words ("pi", "oh-my-pi", "a folder from the settings") */
  agent: z.string(),
  /** where it is: shown to the user, and what importSessions({ paths }) takes (it is an allowed folder) */
  path: z.string(),
  /** session files in it (*.jsonl, recursively) */
  sessionFiles: count,
});
export type SessionFolder = z.infer<typeof sessionFolderSchema>;

/** The last change made in Bonsai that can be undone (while the leaf is still where it left it). */
export const undoSchema = z.object({
  kind: z.enum(["compaction", "branch", "label"]),
  /** the entry that change appended (compaction, branch summary, label entry), null for a plain branch switch */
  entryId: z.string().nullable(),
  /** "Undo compaction" */
  title: z.string(),
  /** what undo does, in one sentence */
  detail: z.string(),
});
export type UndoDto = z.infer<typeof undoSchema>;


export const importResultSchema = z.object({
  /** path or file name as given */
  source: z.string(),
  ok: z.boolean(),
  sessionId: z.string().nullable(),
  title: z.string().nullable(),
  /** entries stored by this import (new ones on a re-import) */
  entriesImported: count,
  /** lines that could not be read, format migrations applied, ... (human readable) */
  warnings: z.array(z.string()),
  /** set when ok is false */
  error: z.string().nullable(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const searchHitSchema = z.object({
  sessionId: z.string(),
  sessionTitle: z.string(),
  entryId: z.string(),
  type: z.string(),
  role: z.string().nullable(),
  timestamp: z.string(),
  /** text around the match on one line; the matched words are wrapped in [[ and ]], … where cut */
  snippet: z.string(),
  /** on a team archive: the project the session was pushed to, and who pushed it */
  archive: z.object({ project: z.string(), pushedBy: z.string() }).optional(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

// ---------------------------------------------------------------- tree and entries

/**
 * The skeleton as it crosses the wire: columns (core's packSkeleton), about half the object form's
 * size. The renderer turns it back into a TreeSkeleton with unpackSkeleton. The sparse field names
 * repeat core's SPARSE_SKELETON_FIELDS (this package takes only types from core); the compile-time
 * check at the end keeps them equal.
 */
const sparseValues = z.array(z.union([z.number(), z.string(), z.boolean()]));
export const packedSkeletonSchema = z.object({
  v: z.literal(1),
  sessionId: z.string(),
  leafId: z.string().nullable(),
  ids: z.array(z.string()),
  parents: z.array(z.number().int()),
  danglingParents: z.array(z.union([z.number(), z.string()])),
  typeNames: z.array(z.string()),
  types: z.array(z.number().int()),
  roleNames: z.array(z.string()),
  roles: z.array(z.number().int()),
  times: z.array(z.union([z.number(), z.string()])),
  tokens: z.array(z.number()),
  previews: z.array(z.string()),
  /** openSession and getSkeleton send the previews of core's previewHeads only, at these positions */
  previewAt: z.array(z.number().int().min(0)).optional(),
  sparse: z
    .object({
      label: sparseValues,
      toolName: sparseValues,
      pruned: sparseValues,
      stopReason: sparseValues,
      customType: sparseValues,
      firstKeptEntryId: sparseValues,
      fromId: sparseValues,
      fromExtension: sparseValues,
      offline: sparseValues,
      tokensBefore: sparseValues,
      thinking: sparseValues,
    })
    .partial(),
});

/** A whole session entry, kept as the JSON object read from the file (unknown fields survive). */
export const sessionEntrySchema = z.custom<SessionEntry>(
  (v) =>
    typeof v === "object" &&
    v !== null &&
    typeof (v as { id?: unknown }).id === "string" &&
    typeof (v as { type?: unknown }).type === "string",
  "not a session entry",
);

export const entryDetailSchema = z.object({
  entry: sessionEntrySchema,
  /** the estimate the entry adds to a context (core entryContextTokens: a compaction's summary; 0 for metadata) */
  tokens: z.number(),
  /** the original tool output of a pruned toolResult (content blocks), null when not pruned */
  prunedOriginal: z.array(z.record(z.string(), z.unknown())).nullable(),
  /** on the session's active path (root to current leaf) */
  onActivePath: z.boolean(),
});
export type EntryDetail = z.infer<typeof entryDetailSchema>;

// ---------------------------------------------------------------- context preview

export const contextMessageSchema = z.object({
  /** the entry this message comes from (a compaction's id for its summary) */
  entryId: z.string().nullable(),
  /** role as the model sees it after convertToLlm: "user" | "assistant" | "toolResult" */
  role: z.string(),
  /** where it comes from: the session message's own role, or "compactionSummary" / "branchSummary" / "custom" */
  sourceRole: z.string(),
  /** estimateTokens of the message (chars/4): the context's estimate is their sum */
  tokens: tokens,
  preview: z.string(),
  /** the agent leaves it out of what it sends (a bash run with `!!`); counted in the estimate as the agent counts it */
  excluded: z.boolean().optional(),
});
export type ContextMessage = z.infer<typeof contextMessageSchema>;

export const contextSizePointSchema = z.object({
  /** the entry's position on the path (0 = the root) */
  pos: count,
  entryId: z.string(),
  /** estimated context size (tokens) if this entry were the leaf */
  tokens: tokens,
  /** this entry is a compaction (the series drops here) */
  compaction: z.boolean(),
});

/**
 * The last usage a model reported on the path (core ReportedUsage): its own count of the context
 * at that reply, and how it relates to the latest compaction on the path.
 */
export const reportedUsageSchema = z.object({
  tokens: tokens,
  /** the assistant entry that reported it */
  entryId: z.string(),
  /** "before-compaction": it measures the context the latest compaction replaced (stale) */
  age: z.enum(["no-compaction", "after-compaction", "before-compaction"]),
  /** estimate of the context's messages after that reply */
  trailingTokens: tokens,
  /** the model that reported it ("" when the session does not say) */
  model: z.string().max(300),
});
export type ReportedUsageDto = z.infer<typeof reportedUsageSchema>;

/** how much of a long context a context preview lists (contextPreviewSchema.unlisted): core's, the CLI's listing's too */
export { CONTEXT_LIST_HEAD, CONTEXT_LIST_TAIL } from "@bonsai/core";

/** What the model sees from a node (core contextOf): every panel shows these figures. */
export const contextPreviewSchema = z.object({
  sessionId: z.string(),
  leafId: z.string().nullable(),
  /** the system prompt the model gets (from session_init), null when none is known; not in `tokens` */
  systemPrompt: z.object({ text: z.string(), tokens: tokens }).nullable(),
  /**
   * the context's messages; a long context's first and newest ones only, unless all were asked for
   * (`unlisted` says what lies between)
   */
  messages: z.array(contextMessageSchema),
  /**
   * the messages not in `messages` (a context of more than CONTEXT_LIST_HEAD + CONTEXT_LIST_TAIL
   * messages lists its first CONTEXT_LIST_HEAD and its newest CONTEXT_LIST_TAIL), null when all are
   */
  unlisted: z
    .object({
      /** the index in `messages` of the first message listed after them */
      at: count,
      count: count,
      /** the sum of their estimates */
      tokens: tokens,
      /** the largest estimate of all the context's messages, listed or not */
      largestTokens: tokens,
    })
    .nullable(),
  /** the estimate: the sum of the messages' tokens (every message's, listed or not) */
  tokens: tokens,
  /** the last usage reported on the path, null when no reply reports one */
  usage: reportedUsageSchema.nullable(),
  /** what the agent compares with its threshold: a fresh usage plus the messages after it, else the estimate */
  agentTokens: tokens,
  /** the window of the session's model (core contextWindowOf): known model, override, or the settings' */
  contextWindow: count,
  /** where contextWindow came from */
  contextWindowSource: z.enum(["override", "known-model", "extended", "settings", "recorded"]),
  /** agentTokens is the reported usage plus the estimate after it ("reported"), or the estimate alone */
  basis: z.enum(["reported", "estimate"]),
  /** above it a threshold compaction triggers: contextWindow - compaction.reserveTokens, or the threshold set in the settings */
  threshold: z.number(),
  /** agentTokens is above the threshold (and compaction is enabled) */
  overThreshold: z.boolean(),
  /** latest compaction on the path: entries before firstKeptEntryId are not sent */
  compaction: z
    .object({ entryId: z.string(), firstKeptEntryId: z.string().nullable(), tokensBefore: z.number() })
    .nullable(),
  /** entries on the path (root to this node) */
  pathLength: count,
  /**
   * the estimate along the path (root to this node), each point as if that entry were the leaf,
   * thinned to what a chart shows: the highest point of each of about 400 stretches of the path,
   * and every compaction with the point before it
   */
  sizeSeries: z.array(contextSizePointSchema),
});
export type ContextPreview = z.infer<typeof contextPreviewSchema>;

// ---------------------------------------------------------------- compaction

export const compactionPlanSchema = z.object({
  sessionId: z.string(),
  leafId: z.string().nullable(),
  /** false when there is nothing to compact (reason says why, e.g. "Already compacted") */
  possible: z.boolean(),
  reason: z.string().nullable(),
  firstKeptEntryId: z.string().nullable(),
  /** entries whose messages are summarized (history part) */
  summarizedEntryIds: z.array(z.string()),
  /** entries of the split turn's prefix (summarized separately), empty unless isSplitTurn */
  turnPrefixEntryIds: z.array(z.string()),
  /** entries kept verbatim (firstKeptEntryId to the leaf) */
  keptEntryIds: z.array(z.string()),
  isSplitTurn: z.boolean(),
  /** the estimate at the leaf now (core contextOf): the figure every panel shows for this node */
  contextTokens: tokens,
  /** what the compaction entry records as tokensBefore (the last reported usage on the path, compaction.md §5) */
  tokensBefore: tokens,
  /** estimate of the context after compaction, without the summary itself */
  estimatedTokensAfter: tokens,
  hasPreviousSummary: z.boolean(),
  readFiles: z.array(z.string()),
  modifiedFiles: z.array(z.string()),
});
export type CompactionPlan = z.infer<typeof compactionPlanSchema>;

/** A compaction result (spec compaction.md §11), as generated or as edited by the user before commit. */
const MAX_DETAILS_BYTES = 1024 * 1024;
export const compactionResultSchema = z.object({
  summary: z
    .string()
    .min(1, "summary must not be empty")
    .max(MAX_COMMITTED_SUMMARY_CHARS, `summary is longer than ${MAX_COMMITTED_SUMMARY_CHARS.toLocaleString("en")} characters`),
  shortSummary: z.string().max(MAX_SHORT_SUMMARY_CHARS, `shortSummary is longer than ${MAX_SHORT_SUMMARY_CHARS.toLocaleString("en")} characters`).optional(),
  firstKeptEntryId: idSchema,
  tokensBefore: z.number().nonnegative(),
  details: z.unknown().optional(),
  preserveData: z.record(z.string(), z.unknown()).optional(),
  fromExtension: z.boolean().optional(),
  /** produced by the offline extractive summarizer (no model configured) */
  offline: z.boolean().optional(),
}).refine(
  (r) => r.details === undefined && r.preserveData === undefined ? true : fitsUtf8(JSON.stringify([r.details ?? null, r.preserveData ?? null]) ?? "", MAX_DETAILS_BYTES),
  { message: "details and preserveData are larger than 1 MiB together", path: ["details"] },
);
export type CompactionResultDto = z.infer<typeof compactionResultSchema>;

export const compactionOutcomeSchema = z.object({
  jobId: z.string(),
  /** the generated (dry run) or appended result */
  result: compactionResultSchema,
  /** id of the appended compaction entry; null for a dry run */
  entryId: z.string().nullable(),
  /** estimated context size before and after (for the diff view) */
  contextTokensBefore: tokens,
  contextTokensAfter: tokens,
});
export type CompactionOutcome = z.infer<typeof compactionOutcomeSchema>;

// ---------------------------------------------------------------- pruning

export const prunePlanItemSchema = z.object({
  entryId: z.string(),
  toolName: z.string(),
  tokens: tokens,
});

/** What pruning changes: the context sent from the leaf, and the stored output the notices hide. */
export const pruneFiguresShape = {
  /** the figure at the leaf (core pruneContextChange: the display figure, less what the model stops seeing after): outputs already summarized away change nothing */
  contextTokensBefore: tokens,
  contextTokensAfter: tokens,
  /** what the model stops seeing (the estimate of the context's messages the pruning shrinks by) */
  stopsSeeingTokens: tokens,
  /** something is pruned, but the model would see less than the pruning minimum */
  gainsLittle: z.boolean(),
  /** UTF-8 bytes of the stored tool outputs replaced by a notice (Bonsai keeps them to restore) */
  bytesHidden: count,
};

export const prunePlanSchema = z.object({
  sessionId: z.string(),
  items: z.array(prunePlanItemSchema),
  /** the spec's saving: the estimates of the replaced outputs minus their notices, wherever they are on the path */
  tokensSaved: tokens,
  /** why nothing would be pruned (core nothingToPruneReason, the sentence the CLI prints); null when something would */
  nothingReason: z.string().nullable(),
  ...pruneFiguresShape,
});
export type PrunePlan = z.infer<typeof prunePlanSchema>;

// ---------------------------------------------------------------- settings

const nonNegInt = z.number().int().nonnegative();
const posInt = z.number().int().positive();
const url = z
  .string()
  .max(2048, "must be at most 2,048 characters")
  .refine((s) => s === "" || /^https?:\/\/[^\s]+$/u.test(s), "must be empty or an http(s) URL");

export const settingsSchema = z.object({
  compaction: z.object({
    enabled: z.boolean(),
    reserveTokens: nonNegInt,
    keepRecentTokens: nonNegInt,
    autoContinue: z.boolean(),
    remoteEndpoint: url,
    /** compact above this many tokens instead of contextWindow - reserveTokens; 0 = unset */
    thresholdTokens: nonNegInt,
    /** compact above this percentage of the window; 0 = unset */
    thresholdPercent: nonNegInt.max(100),
  }),
  pruning: z.object({ enabled: z.boolean(), protectTokens: nonNegInt, minimumSavings: nonNegInt }),
  branchSummary: z.object({ enabled: z.boolean(), reserveTokens: nonNegInt }),
  retry: z.object({ enabled: z.boolean(), maxRetries: nonNegInt.max(100), baseDelayMs: nonNegInt.max(3_600_000) }),
  model: z.object({
    baseUrl: url,
    model: z.string().max(200),
    fallbackModels: z.array(z.string().min(1).max(200)).max(20),
    contextWindowOverrides: z.array(z.string().min(1).max(300)).max(50),
    contextWindow: posInt,
    maxOutputTokens: posInt,
    apiKeyEnv: z.string().max(200).regex(/^[A-Za-z_][A-Za-z0-9_]*$/u, "must be an environment variable name"),
  }),
  hooksDir: z.string().max(4096),
  sessionDirs: z.array(z.string().min(1).max(4096)).max(100),
  theme: z.enum(["system", "light", "dark"]),
  team: z.object({ redactPatterns: z.array(z.string().min(1).max(1000)).max(200) }),
});

/** A settings change: any subset of the fields, nested objects merged. Unknown keys are refused. */
export const settingsPatchSchema = z.strictObject({
  compaction: settingsSchema.shape.compaction.partial().strict().optional(),
  pruning: settingsSchema.shape.pruning.partial().strict().optional(),
  branchSummary: settingsSchema.shape.branchSummary.partial().strict().optional(),
  retry: settingsSchema.shape.retry.partial().strict().optional(),
  model: settingsSchema.shape.model.partial().strict().optional(),
  hooksDir: settingsSchema.shape.hooksDir.optional(),
  sessionDirs: settingsSchema.shape.sessionDirs.optional(),
  theme: settingsSchema.shape.theme.optional(),
  team: settingsSchema.shape.team.partial().strict().optional(),
});
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const settingsStateSchema = z.object({
  settings: settingsSchema,
  /** an API key is available (from the environment, the OS keychain or the key file); the key itself never crosses */
  hasApiKey: z.boolean(),
  /** where the key in use comes from */
  apiKeySource: z.enum(["env", "keychain", "file"]).nullable(),
  /** where setApiKey stores a key: the OS keychain (Electron safeStorage) or a 0600 file in the data folder */
  apiKeyStorage: z.enum(["keychain", "file"]),
  /** the settings the window cannot set as it likes (HOST_SETTINGS), and how they change */
  hostSettings: z.object({
    /** dotted names, e.g. "hooksDir", "model.apiKeyEnv" */
    fields: z.array(z.string()),
    /**
     * "cli": read-only in the window (browser mode); changed on the host with `command`.
     * "dialogs": the desktop app changes them through its own dialogs (a folder picker, a confirmation).
     */
    changeWith: z.enum(["cli", "dialogs"]),
    /** the command that changes one on the host, with KEY and VALUE to fill in */
    command: z.string(),
    /** the database file whose settings hold them */
    database: z.string(),
  }),
});
export type SettingsState = z.infer<typeof settingsStateSchema>;

// ---------------------------------------------------------------- what-if replay

/** Every value a replay runs with (core WhatIfSettings). */
export const whatIfSettingsSchema = z.strictObject({
  compactionEnabled: z.boolean(),
  reserveTokens: nonNegInt,
  keepRecentTokens: nonNegInt,
  /** 0 = contextWindow - reserveTokens */
  thresholdTokens: nonNegInt,
  /** 0 = unset */
  thresholdPercent: nonNegInt.max(100),
  pruningEnabled: z.boolean(),
  protectTokens: nonNegInt,
  minimumSavings: nonNegInt,
  contextWindow: posInt,
});

const whatIfCompactionSchema = z.object({
  /** the entry the compaction follows on the path */
  atEntryId: z.string(),
  /** its position on the active path (the chart's x) */
  atIndex: count,
  tokensBefore: tokens,
  firstKeptEntryId: z.string(),
  summarizedTokens: tokens,
  isSplitTurn: z.boolean(),
});

const whatIfTotalsSchema = z.object({ compactions: count, peakContextTokens: tokens, summarizedTokens: tokens, prunedTokens: tokens });

export const whatIfRunSchema = z.object({
  compactions: z.array(whatIfCompactionSchema),
  peakContextTokens: tokens,
  summarizedTokens: tokens,
  prunedTokens: tokens,
  /** the context along the path: [position, tokens], thinned to at most maxPoints (each stretch keeps its lowest and highest point) */
  points: z.array(z.tuple([count, tokens])),
});
export type WhatIfRunDto = z.infer<typeof whatIfRunSchema>;

export const whatIfResultSchema = z.object({
  settings: whatIfSettingsSchema.extend({ threshold: z.number(), protectedTools: z.array(z.string()) }),
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      title: z.string(),
      /** entries on the active path */
      pathLength: count,
      summaryEstimate: z.union([
        z.object({ source: z.literal("session"), summaries: count, meanTokens: tokens }),
        z.object({ source: z.literal("ratio"), ratio: z.number() }),
      ]),
      tokensPerEstimatedToken: z.number(),
      /** the window this session was replayed on, and the threshold from it */
      contextWindow: posInt,
      threshold: z.number(),
      actual: whatIfRunSchema,
      candidate: whatIfRunSchema,
    }),
  ),
  totals: z.object({ actual: whatIfTotalsSchema, candidate: whatIfTotalsSchema }),
  /** milliseconds the backend spent on the call (reading the paths the first time, replaying, thinning) */
  computeMs: z.number(),
});
export type WhatIfResult = z.infer<typeof whatIfResultSchema>;

// ---------------------------------------------------------------- amnesia report

export const amnesiaFindingSchema = z.object({
  kind: z.enum(["reread", "repeatedCall", "recurringError", "restatedInstruction", "droppedIdentifier"]),
  /** entries on both sides, the earlier ones first */
  entryIds: z.array(z.string()),
  detail: z.string(),
});
export type AmnesiaFindingDto = z.infer<typeof amnesiaFindingSchema>;

export const amnesiaReportSchema = z.object({
  compactions: z.array(z.object({ compactionId: z.string(), score: count, findings: z.array(amnesiaFindingSchema) })),
  prunings: z.array(
    z.object({ atEntryId: z.string(), prunedAt: z.number(), prunedEntryIds: z.array(z.string()), score: count, findings: z.array(amnesiaFindingSchema) }),
  ),
});
export type AmnesiaReportDto = z.infer<typeof amnesiaReportSchema>;

/** Per compaction of the amnesia report: its score and how many findings it has. */
export const amnesiaScoresSchema = z.object({
  compactions: z.array(z.object({ compactionId: z.string(), score: count, findings: count })),
});
export type AmnesiaScoresDto = z.infer<typeof amnesiaScoresSchema>;

/** Findings by kind (every kind, zeros included). */
const amnesiaKindCountsSchema = z.object({ reread: count, repeatedCall: count, recurringError: count, restatedInstruction: count, droppedIdentifier: count });

const amnesiaPointSchema = z.object({ kind: z.enum(["compaction", "pruning"]), entryId: z.string(), score: count, findings: amnesiaKindCountsSchema });

/** The amnesia report over many sessions (core amnesiaOverview): sessions worst first, totals by kind, the worst compactions of all. */
export const amnesiaOverviewSchema = z.object({
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      project: z.string().nullable(),
      pushedBy: z.string().nullable(),
      title: z.string().nullable(),
      agent: z.string(),
      compactions: count,
      prunings: count,
      score: count,
      findings: amnesiaKindCountsSchema,
      points: z.array(amnesiaPointSchema),
    }),
  ),
  totals: z.object({ sessions: count, compactions: count, prunings: count, score: count, findings: amnesiaKindCountsSchema }),
  worst: z.array(amnesiaPointSchema.extend({ sessionId: z.string(), project: z.string().nullable(), title: z.string().nullable() })),
});
export type AmnesiaOverviewDto = z.infer<typeof amnesiaOverviewSchema>;

/** An identifier of the part a compaction would summarize that the kept part uses (the dry-run summary check). */
export const identifierUseSchema = z.object({
  identifier: z.object({ value: z.string(), kind: z.enum(["path", "url", "symbol", "errorCode"]) }),
  spanEntryIds: z.array(z.string()),
  laterEntryIds: z.array(z.string()),
});

// ---------------------------------------------------------------- compile-time agreement with core

agree<Same<z.infer<typeof packedSkeletonSchema>, PackedSkeleton>>();
agree<Same<z.infer<typeof settingsSchema>, BonsaiSettings>>();
agree<Same<keyof z.infer<typeof settingsSchema>, keyof BonsaiSettings>>();
agree<Same<z.infer<typeof whatIfSettingsSchema>, WhatIfSettings>>();
agree<Same<z.infer<typeof amnesiaReportSchema>, AmnesiaReport>>();
agree<Same<z.infer<typeof amnesiaOverviewSchema>, AmnesiaOverview>>();
agree<Same<z.infer<typeof identifierUseSchema>, IdentifierUse>>();

// ---------------------------------------------------------------- usage points (issue 44: one figure in every panel)

/** each assistant reply with a usage, and what it reports (core calculateContextTokens), in file order */
export const usagePointsSchema = z.object({ entryIds: z.array(z.string()), tokens: z.array(tokens) });
export type UsagePoints = z.infer<typeof usagePointsSchema>;
