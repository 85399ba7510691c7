/**
 * One interface for every agent's session files: pi / oh-my-pi's own (modules/pi-format.ts) and the
 * read-only Claude Code and Codex files (modules/foreign-import.ts). The sync (modules/sync.ts) picks
 * the format from the file's first lines for a whole read and from the session's row for an append;
 * the write-through and the exports ask the row's format.
 */
import type { SessionRow } from "../reads/sessions";
import type { ImportReport, StoreError } from "../session-store";
import type { AppendedBytes } from "../source/appended-bytes";
import type { WholeFile } from "../source/source-sync";
import type { StoreContext } from "./context";

/** what brought the change in */
export type SyncSource = "import" | "follow" | "append";

/** why a known session's file is read whole again */
export type WholeReason = "rewritten" | "recovered";

/** How one file is brought up to date. */
export interface SyncOptions {
  signal?: AbortSignal;
  /** read it whole whatever the recorded state says (recovery after a killed file operation) */
  whole?: boolean;
  /** the bytes read so far of a file read whole, after each block */
  onBytes?: (bytesDone: number) => void;
  /** a write held up past the busy timeout is thrown (the caller waits and tries again: syncWaitingForWriter), not reported as a failed import */
  waitForWriter?: boolean;
}

/** A file read whole: a first import, or `existing` read again as its next generation. */
export interface WholeRead {
  file: string;
  whole: WholeFile;
  existing: SessionRow | undefined;
  options: SyncOptions;
  reason: WholeReason;
  /** the file looks like no agent's session: why (one sentence quoting nothing of the file), else null */
  unknownReason: string | null;
}

/** The bytes appended to a known session's file since the store read it (from `offset`). */
export interface AppendedRead {
  row: SessionRow;
  appended: AppendedBytes;
  offset: number;
  source: SyncSource;
  options: SyncOptions;
  /** reads the file again: on from what is stored now, or whole (what was appended cannot be stored in place) */
  resync(whole: boolean): ImportReport;
}

export interface SourceFormat {
  /** the sessions.source_format of sessions read this way */
  readonly name: SessionRow["source_format"];
  /** a write into a session of this format is refused with this error; null: it may be written */
  refuseWrite(row: SessionRow): StoreError | null;
  /** stores a whole file (one transaction) and reports it */
  importWhole(ctx: StoreContext, read: WholeRead): ImportReport;
  /** stores what was appended (one transaction) and reports it */
  importAppended(ctx: StoreContext, read: AppendedRead): ImportReport;
  /** the session's file as an export gives it back */
  renderJsonl(ctx: StoreContext, sessionId: string): string;
  /** the session's file is read as another format from now on (it was rewritten) */
  leave(ctx: StoreContext, sessionId: string): void;
}
