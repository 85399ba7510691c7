/** Sessions, uploads, imports, "Continue in pi", undo and search hits. */
import { z } from "zod";
import { count, tokens } from "./primitives";

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
export type SessionSummaryDto = z.infer<typeof sessionSummarySchema>;

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

/** A change made in Bonsai that can be undone or redone (while the leaf is still where it left it). */
export const undoSchema = z.object({
  kind: z.enum(["compaction", "branch", "label", "prune"]),
  /** the entry that change appended (compaction, branch summary, label entry), null for a plain branch switch or a prune */
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

/** A commit a session produced (a session imported from a repository's Entire checkpoint branch). */
export const sessionCommitSchema = z.object({
  sha: z.string(),
  subject: z.string(),
  /** committer date, ISO 8601 */
  date: z.string(),
  /** the files it changed */
  files: z.array(z.string()),
});
export type SessionCommit = z.infer<typeof sessionCommitSchema>;

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
