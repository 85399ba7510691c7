/**
 * Named points of the file protocols where the fault suite stops a process (kill -9) to prove that
 * the next open puts the store and the file back in agreement. Production code passes no hook.
 */
export type FaultPoint =
  | "rewrite:intent"
  | "rewrite:temp-written"
  | "rewrite:backup-written"
  | "rewrite:backup-linked"
  | "rewrite:before-rename"
  | "rewrite:after-rename"
  | "append:intent"
  | "append:written"
  | "append:before-write"
  /** the disk refused an append: the journal is told what will be cut, the cut not made yet */
  | "append:take-back-noted"
  /** recovery is about to make the cut a dead process noted */
  | "recovery:take-back"
  /** a sync has read the file's appended bytes and is about to store them */
  | "sync:before-store";

export type FaultHook = (point: FaultPoint) => void;
