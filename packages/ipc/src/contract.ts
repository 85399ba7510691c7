/**
 * THE contract between the renderer and the backend: every call (method: input schema -> output
 * schema) here, every pushed event (name -> payload schema) in pushed-events.ts. Both transports
 * (Electron IPC and the browser-mode WebSocket) carry exactly this; the backend's handlers are
 * typed from it (`Handlers`), and every input is validated against it where it enters the backend.
 *
 * Inputs are strict objects: an unknown key is a typo and is refused. Outputs are typed from the
 * schemas (the backend is trusted) and validated in tests.
 */
import { z } from "zod";
import { agree, type Same } from "./type-checks";
import type { METHOD_NAMES, EVENT_NAMES } from "./names";
import type { EventName } from "./pushed-events";

export { events, type Events, type EventName, type EventPayload } from "./pushed-events";
import {
  usagePointsAfterSchema,
  usagePointsSchema,
  compactionOutcomeSchema,
  compactionPlanSchema,
  compactionResultSchema,
  contextPreviewSchema,
  entryDetailSchema,
  idSchema,
  importResultSchema,
  leafIdSchema,
  sessionCommitSchema,
  prunePlanSchema,
  searchHitSchema,
  sessionSummarySchema,
  settingsPatchSchema,
  settingsStateSchema,
  packedSkeletonSchema,
  whatIfSettingsSchema,
  whatIfResultSchema,
  amnesiaReportSchema,
  amnesiaScoresSchema,
  amnesiaOverviewSchema,
  identifierUseSchema,
  uploadChunkDataSchema,
  uploadIdSchema,
  MAX_UPLOAD_BYTES,
  piCopySchema,
  pruneFiguresShape,
  sessionFolderSchema,
  undoSchema,
} from "./schemas";

const method = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output });
const none = z.strictObject({});
const sessionRef = { sessionId: idSchema };
/** optional client-chosen id echoed in the events of a long-running call (progress, deltas) */
const requestId = z.string().min(1).max(100).optional();
const instructions = z.string().max(20_000, "instructions are longer than 20,000 characters").optional();
/**
 * jsonl: the session file (Claude Code / Codex: the agent's own file, byte for byte); markdown: the
 * path to the leaf; html: one self-contained page (tree, transcript, context chart; no network
 * request); pi: the path to the leaf as a pi session ("Continue in pi" as a file). `leafId`
 * (markdown, html, pi): default the session's leaf.
 */
const exportFormat = z.enum(["jsonl", "markdown", "html", "pi"]);

export const contract = {
  // ------------------------------------------------------------ app
  /** which host runs the backend, and what it can do */
  getAppInfo: method(
    none,
    z.object({
      mode: z.enum(["electron", "browser"]),
      version: z.string(),
      dataDir: z.string(),
      /**
       * the host has native dialogs (the desktop app): import, export and folder settings go through
       * importFromDialog, saveSessionAs and pickSettingsFolder; without them (browser mode) files are
       * uploaded and exports are downloads
       */
      nativeDialogs: z.boolean(),
      /** the page is served by a team archive (`bonsai team serve`): who signed in, and the projects they may read (an admin: all) */
      archive: z.object({ user: z.string(), role: z.enum(["admin", "member"]), projects: z.array(z.string()), /** who pushed the sessions of those projects */ people: z.array(z.string()).optional() }).optional(),
      /**
       * why nothing on this host can change a session, a setting or a host folder (a team archive:
       * "read-only: a team archive copy"); the page then hides or disables every such control, and
       * says this where it does. Absent: sessions may be changed (each may still be read-only itself).
       */
      readOnly: z.string().optional(),
    }),
  ),

  // ------------------------------------------------------------ sessions
  /**
   * The sessions. On a team archive a page of them, newest push first, narrowed in the archive (a
   * project, a person's pushes, a text in the title, folder or id), with `next`: the position after
   * its last session (`after` gives the following page; null: none follows). The local store gives
   * every session and ignores these.
   */
  listSessions: method(
    z.strictObject({
      project: z.string().min(1).max(200).optional(),
      pushedBy: z.string().min(1).max(200).optional(),
      text: z.string().max(200, "the filter is longer than 200 characters").optional(),
      after: z.string().min(1).max(100).optional(),
      limit: z.number().int().min(1).max(1000).optional(),
    }),
    z.object({ sessions: z.array(sessionSummarySchema), next: z.string().nullable().optional() }),
  ),
  /** the agents' session folders that exist on this machine, with how many session files each holds (importSessions takes their paths) */
  findSessionFolders: method(none, z.object({ folders: z.array(sessionFolderSchema) })),
  /** the session's title in Bonsai (null or "" goes back to the file's); the agent's file is not changed */
  setSessionTitle: method(
    z.strictObject({ ...sessionRef, title: z.string().trim().max(200, "the title is longer than 200 characters").nullable() }),
    z.object({ session: sessionSummarySchema }),
  ),
  /**
   * Import uploaded files (beginUpload + uploadChunk until every byte arrived) and paths. A path must
   * lie inside the agents' session folders or the configured sessionDirs (after resolving symlinks);
   * any other path refuses the whole call with `forbidden`. An upload that is not a session (or
   * fails) is deleted from disk.
   */
  importSessions: method(
    z
      .strictObject({
        paths: z.array(z.string().min(1).max(4096)).max(100).optional(),
        uploads: z.array(uploadIdSchema).max(1000).optional(),
        requestId,
      })
      .refine((v) => (v.paths?.length ?? 0) + (v.uploads?.length ?? 0) > 0, "give at least one path or upload"),
    z.object({ results: z.array(importResultSchema) }),
  ),
  /** The desktop app: the main process shows its open dialog and the chosen files are imported (never a path from the window). */
  importFromDialog: method(z.strictObject({ requestId }), z.object({ cancelled: z.boolean(), results: z.array(importResultSchema) })),
  /**
   * A git repository's Entire checkpoints (entire/checkpoints/v1), read through git without changing
   * the repository, each agent session linked to the commits that name it; again: only checkpoints
   * added since. `path`: a repository inside the session folders (as for importSessions) or one
   * findGitRepositories offered; without it the desktop app's folder picker asks (browser mode
   * refuses). Progress: importProgress events of the requestId; cancelImport stops it.
   */
  importGitRepository: method(
    z.strictObject({ path: z.string().min(1).max(4096).optional(), requestId }),
    z.object({
      cancelled: z.boolean(),
      /** the repository read (null: the picker was cancelled) */
      repository: z.string().nullable(),
      checkpointsRead: z.number().int().nonnegative(),
      checkpointsTotal: z.number().int().nonnegative(),
      commitsLinked: z.number().int().nonnegative(),
      results: z.array(importResultSchema),
    }),
  ),
  /** the commits a session produced (imported from a repository's checkpoint branch; [] for others), oldest first */
  getSessionCommits: method(z.strictObject(sessionRef), z.object({ commits: z.array(sessionCommitSchema) })),
  /** how many commits each session produced, by session id (sessions without any are absent) */
  getCommitCounts: method(none, z.object({ counts: z.record(z.string(), z.number().int().nonnegative()) })),
  /** the git repositories in the stored sessions' working folders that hold Entire checkpoints (what onboarding offers) */
  findGitRepositories: method(none, z.object({ repositories: z.array(z.object({ path: z.string(), sessions: z.number().int().nonnegative() })) })),
  /** Start an upload of `size` bytes (the file's name, no path); then send its bytes with uploadChunk, in order. */
  beginUpload: method(
    z.strictObject({ name: z.string().min(1).max(1000), size: z.number().int().min(0).max(MAX_UPLOAD_BYTES, `the file is larger than ${MAX_UPLOAD_BYTES / 1024 ** 3} GiB`) }),
    z.object({ uploadId: z.string(), chunkBytes: z.number().int().positive() }),
  ),
  /** The bytes from `offset` (base64; offset = the bytes received so far); returns the bytes received. */
  uploadChunk: method(
    z.strictObject({ uploadId: uploadIdSchema, offset: z.number().int().min(0), data: uploadChunkDataSchema }),
    z.object({ received: z.number().int().min(0) }),
  ),
  /** Drop an upload that was not imported yet (its bytes are deleted from disk). */
  cancelUpload: method(z.strictObject({ uploadId: uploadIdSchema }), z.object({ cancelled: z.boolean() })),
  /**
   * stop the importSessions call started with this requestId: the file being read is left as it was
   * (its import is one change: all or nothing), the files after it are not read; false when none runs
   */
  cancelImport: method(z.strictObject({ requestId: z.string().min(1).max(100) }), z.object({ cancelled: z.boolean() })),
  /**
   * the session's summary and tree skeleton (and start following its source file for appends);
   * the skeleton in its packed wire form (unpackSkeleton from @bonsai/core gives the TreeSkeleton),
   * with the previews of the entries the tree draws on their own (core's previewHeads) only: the
   * others come as `previewLater` nodes, and getPreviews gives their previews when they are shown
   */
  openSession: method(
    z.strictObject(sessionRef),
    z.object({ session: sessionSummarySchema, skeleton: packedSkeletonSchema }),
  ),
  /** the tree skeleton, packed as in openSession */
  getSkeleton: method(z.strictObject(sessionRef), packedSkeletonSchema),
  /** the skeleton previews of these entries (those a packed skeleton left out), in the same order; "" for an id not in the session */
  getPreviews: method(
    z.strictObject({ ...sessionRef, entryIds: z.array(idSchema).min(1).max(500) }),
    z.object({ previews: z.array(z.string()) }),
  ),
  /**
   * After entries were added: the nodes after the `count` the client holds (its last one `lastId`),
   * `from` = count; or the whole skeleton with `from` 0 when that is not a prefix of the session's
   * skeleton any more (or a label entry changed an older node)
   */
  getSkeletonTail: method(
    z.strictObject({ ...sessionRef, count: z.number().int().min(0), lastId: idSchema.nullable() }),
    z.object({ from: z.number().int().min(0), skeleton: packedSkeletonSchema }),
  ),
  getEntry: method(z.strictObject({ ...sessionRef, entryId: idSchema }), entryDetailSchema),
  getEntries: method(
    z.strictObject({ ...sessionRef, entryIds: z.array(idSchema).min(1).max(500) }),
    z.object({ entries: z.array(entryDetailSchema) }),
  ),
  /**
   * Browser mode: the session as a download. `url` is a one-time address on `bonsai serve` (valid
   * for a few minutes; the page adds its token); the page saves it through the browser. Never a
   * path: the backend writes no file for the page. The desktop app uses saveSessionAs.
   */
  exportSession: method(
    z.strictObject({ ...sessionRef, format: exportFormat, leafId: leafIdSchema.optional() }),
    z.object({ fileName: z.string(), mimeType: z.string(), url: z.string() }),
  ),
  /** The desktop app: the main process asks where to save (its save dialog) and the session is written there; null when cancelled. */
  saveSessionAs: method(z.strictObject({ ...sessionRef, format: exportFormat, leafId: leafIdSchema.optional() }), z.object({ path: z.string().nullable() })),
  /**
   * "Continue in pi": the path to the leaf (default the session's) as a new pi session in pi's own
   * sessions folder for the session's cwd (where pi resumes it), imported; the source is not changed.
   */
  continueInPi: method(z.strictObject({ ...sessionRef, leafId: leafIdSchema.optional() }), piCopySchema),
  searchSessions: method(
    z.strictObject({
      query: z.string().trim().min(1, "search text is empty").max(1000),
      sessionId: idSchema.optional(),
      limit: z.number().int().min(1).max(500).optional(),
    }),
    z.object({
      hits: z.array(searchHitSchema),
      /** entries searched (the session's, or all) not in the search index yet, being indexed in the background: not found by this search */
      unindexed: z.number().int().nonnegative(),
    }),
  ),
  deleteSession: method(z.strictObject(sessionRef), z.object({ deleted: z.boolean() })),

  // ------------------------------------------------------------ what the model sees
  /** what the model sees from the leaf; a long context's messages are listed folded unless allMessages */
  getContextPreview: method(
    z.strictObject({ ...sessionRef, leafId: leafIdSchema.optional(), allMessages: z.boolean().optional() }),
    contextPreviewSchema,
  ),
  /** the usage every assistant reply reports: the page's display figure for every node of the tree (core displayTokensOfTree); `after`: only the replies after the nodes the caller has */
  getUsagePoints: method(z.strictObject({ ...sessionRef, after: usagePointsAfterSchema.optional() }), usagePointsSchema),

  // ------------------------------------------------------------ compaction
  planCompaction: method(z.strictObject({ ...sessionRef, leafId: leafIdSchema.optional() }), compactionPlanSchema),
  /** run a manual compaction at the leaf; dryRun generates the summary without appending it */
  compact: method(
    z.strictObject({ ...sessionRef, leafId: leafIdSchema.optional(), instructions, dryRun: z.boolean().optional(), requestId }),
    compactionOutcomeSchema,
  ),
  /** append a (possibly user-edited) result of a dry run */
  commitCompaction: method(
    z.strictObject({ ...sessionRef, leafId: leafIdSchema.optional(), result: compactionResultSchema }),
    z.object({ entryId: z.string() }),
  ),
  /** abort what runs on the session: a compaction, a branch summary, a prompt turn, or all of them */
  abort: method(
    z.strictObject({ ...sessionRef, what: z.enum(["compaction", "branchSummary", "prompt", "all"]).optional() }),
    z.object({ aborted: z.boolean() }),
  ),

  // ------------------------------------------------------------ branches
  /** move the leaf to targetId, optionally summarizing the abandoned branch */
  navigate: method(
    z.strictObject({ ...sessionRef, targetId: idSchema, summarize: z.boolean(), instructions, requestId }),
    z.object({
      leafId: z.string().nullable(),
      /** choosing a user message puts its text back for editing (the leaf moves to its parent) */
      editorText: z.string().nullable(),
      /** the branch_summary entry appended, if any */
      summaryEntryId: z.string().nullable(),
      /** the summary was cancelled (abort or hook): the leaf did not move */
      cancelled: z.boolean(),
    }),
  ),

  // ------------------------------------------------------------ pruning
  planPrune: method(z.strictObject({ ...sessionRef, leafId: leafIdSchema.optional() }), prunePlanSchema),
  applyPrune: method(
    z.strictObject({ ...sessionRef, leafId: leafIdSchema.optional() }),
    z.object({ prunedEntryIds: z.array(z.string()), tokensSaved: z.number(), ...pruneFiguresShape }),
  ),
  /** restore pruned tool outputs (all of the session's, or the given entries) */
  restorePruned: method(
    z.strictObject({ ...sessionRef, entryIds: z.array(idSchema).max(5_000).optional() }),
    z.object({ restoredEntryIds: z.array(z.string()) }),
  ),

  // ------------------------------------------------------------ continue the session
  /** send a prompt at the leaf; the reply streams as turnDelta events and the call resolves at turn end */
  prompt: method(
    z.strictObject({ ...sessionRef, text: z.string().trim().min(1, "prompt is empty").max(1_000_000), requestId }),
    z.object({
      /** entries appended by the turn (user message, assistant replies, compactions) */
      entryIds: z.array(z.string()),
      stopReason: z.string(),
      errorMessage: z.string().nullable(),
    }),
  ),

  // ------------------------------------------------------------ undo
  /**
   * the newest compaction, branch switch, label or prune made in Bonsai that can still be undone,
   * and the last one undone that can be redone (a history: undone one by one, redone in turn)
   */
  getUndo: method(z.strictObject(sessionRef), z.object({ undo: undoSchema.nullable(), redo: undoSchema.nullable() })),
  /**
   * Undo it: the entries stay (append-only); the leaf moves back, and an entry is appended there so
   * that the file's last line — where the agent resumes — is back too (a label restores the old
   * label; otherwise a `custom` entry of type "bonsai-undo", which adds nothing to the context)
   */
  undo: method(
    z.strictObject(sessionRef),
    z.object({ leafId: z.string().nullable(), appendedEntryId: z.string().nullable(), message: z.string() }),
  ),
  /** do the last undone change again (a "bonsai-redo" entry where the leaf moves; a prune prunes again) */
  redo: method(
    z.strictObject(sessionRef),
    z.object({ leafId: z.string().nullable(), appendedEntryId: z.string().nullable(), message: z.string() }),
  ),

  // ------------------------------------------------------------ labels
  setLabel: method(
    z.strictObject({ ...sessionRef, entryId: idSchema, label: z.string().trim().max(200).nullable() }),
    z.object({ labelEntryId: z.string() }),
  ),

  // ------------------------------------------------------------ what-if replay and amnesia report
  /**
   * replay the active paths of the sessions under candidate settings (no model call): per session the
   * file's run and the candidate's, series thinned to maxPoints (default 600), and the totals
   */
  whatIf: method(
    z.strictObject({
      sessionIds: z.array(idSchema).min(1).max(12),
      settings: whatIfSettingsSchema,
      maxPoints: z.number().int().min(10).max(20_000).optional(),
      /** "session" (default): each session on its own model's window, as the page shows it (settings.contextWindow serves a model Bonsai does not know); "fixed": every session on settings.contextWindow */
      window: z.enum(["session", "fixed"]).optional(),
    }),
    whatIfResultSchema,
  ),
  /** for each compaction and pruning of the session, the signs that the agent lost context, scored */
  getAmnesiaReport: method(z.strictObject(sessionRef), amnesiaReportSchema),
  /**
   * the report's scores only, for the badges on the tree's compaction nodes: a few bytes a compaction
   * where the whole report runs to megabytes on a long session (its findings list every entry)
   */
  getAmnesiaScores: method(z.strictObject(sessionRef), amnesiaScoresSchema),
  /**
   * the amnesia report over every session with a compaction or pruning, worst first (the local
   * store's sessions; on a team archive those the person may read, of `project` when given)
   */
  getAmnesiaOverview: method(z.strictObject({ project: z.string().trim().min(1).max(200).optional() }), amnesiaOverviewSchema),
  /**
   * the dry-run summary check: identifiers of what a compaction at the leaf would summarize that the
   * kept part uses; the client keeps those its summary text does not mention (core missingFromSummary)
   */
  getSummaryCheck: method(z.strictObject({ ...sessionRef, leafId: leafIdSchema.optional() }), z.object({ candidates: z.array(identifierUseSchema) })),

  // ------------------------------------------------------------ settings and the API key
  getSettings: method(none, settingsStateSchema),
  /**
   * Validated patch; returns the new state or an invalid_payload error naming the field. Host
   * settings (HOST_SETTINGS): browser mode refuses any change with `forbidden` (they change on the
   * host: `bonsai config set`); the desktop app takes a folder only from pickSettingsFolder (a
   * patch may remove folders), and an environment variable or address only after the main process
   * showed the change and the user confirmed it (else `aborted`).
   */
  setSettings: method(z.strictObject({ patch: settingsPatchSchema }), settingsStateSchema),
  /** The desktop app: the main process shows a folder picker; the folder becomes hooksDir or is added to sessionDirs. */
  pickSettingsFolder: method(
    z.strictObject({ field: z.enum(["hooksDir", "sessionDirs"]) }),
    z.object({ cancelled: z.boolean(), state: settingsStateSchema }),
  ),
  /** store the API key (keychain in Electron, a 0600 file in browser mode); it never comes back */
  setApiKey: method(z.strictObject({ key: z.string().trim().min(1, "the key is empty").max(10_000) }), settingsStateSchema),
  clearApiKey: method(none, settingsStateSchema),
  /** call the configured model endpoint with a tiny request */
  testConnection: method(
    none,
    z.object({ ok: z.boolean(), model: z.string(), latencyMs: z.number(), message: z.string() }),
  ),
} as const;

export type Contract = typeof contract;
export type MethodName = keyof Contract;
/** what the caller passes (before defaults) */
export type MethodInput<M extends MethodName> = z.input<Contract[M]["input"]>;
/** what the handler receives (after validation) */
export type HandlerInput<M extends MethodName> = z.output<Contract[M]["input"]>;
export type MethodOutput<M extends MethodName> = z.output<Contract[M]["output"]>;

// ---------------------------------------------------------------- the names lists agree with the contract

agree<Same<MethodName, (typeof METHOD_NAMES)[number]>>();
agree<Same<EventName, (typeof EVENT_NAMES)[number]>>();
