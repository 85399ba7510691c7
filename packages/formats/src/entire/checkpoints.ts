/**
 * Entire's checkpoint branch (`entire/checkpoints/v1`), read as data: which folders are checkpoints,
 * what their metadata.json files say, which transcript is each agent session's latest, and the
 * `Entire-Checkpoint:` trailers of commit messages. Pure: the git process I/O is the store's
 * (packages/store/src/entire/).
 *
 * Layout: one folder per checkpoint, sharded by the first two characters of its 12-hex id
 * (`01/8c2b5cd218/`), holding `metadata.json` (`checkpoint_id`, `branch`, `files_touched`,
 * `token_usage`, `sessions[]` of paths) and one folder per session (`0/`, `1/`, …) with its own
 * `metadata.json` (`session_id`, `agent`, `model`, `created_at`, …), `full.jsonl`, `prompt.txt` and
 * `content_hash.txt`.
 *
 * Entire 0.10 keeps each checkpoint on a ref of its own instead, `refs/entire/checkpoints/<last two
 * characters>/<ULID>` (`refs/entire/checkpoints/56/01M00RJ1HC7TDT6GQBD07F6356`), whose tree is the
 * checkpoint folder itself (`metadata.json`, `0/`, …; session paths relative to it); its trailers
 * name the ULID. Such a checkpoint is read as the folder `56/01M00RJ1HC7TDT6GQBD07F6356`, with the
 * id in lower case as every checkpoint id is compared.
 */

/** The branch Entire keeps checkpoints on. */
export const CHECKPOINT_BRANCH = "entire/checkpoints/v1";
/** Where Entire 0.10 keeps one ref per checkpoint. */
export const CHECKPOINT_REFS = "refs/entire/checkpoints/";

/** One checkpoint folder found in the branch's tree. */
export interface CheckpointFolder {
  /** the checkpoint's id: shard + rest (`018c2b5cd218`) */
  id: string;
  /** `01/8c2b5cd218` */
  path: string;
  /** the folder's git tree id: it changes whenever anything in the checkpoint does */
  tree: string;
}

/** One file of the tree: path -> blob id. */
export type TreeBlobs = ReadonlyMap<string, string>;

export interface CheckpointSessionRef {
  /** paths in the tree, without the leading "/" ("" when absent) */
  metadata: string;
  transcript: string;
  prompt: string;
  contentHash: string;
}

export interface CheckpointMetadata {
  checkpointId: string;
  branch: string | null;
  filesTouched: string[];
  sessions: CheckpointSessionRef[];
  /** the metadata.json as read (kept verbatim) */
  raw: Record<string, unknown>;
}

export interface CheckpointSessionMetadata {
  sessionId: string;
  agent: string | null;
  model: string | null;
  createdAt: string | null;
  branch: string | null;
  filesTouched: string[];
  tokenUsage: Record<string, number>;
  raw: Record<string, unknown>;
}

const CHECKPOINT_PATH = /^([0-9a-f]{2})\/([0-9a-f]{6,62})$/;

/** The checkpoint folders among the tree entries of the branch (path -> tree id of every folder). */
export function checkpointFolders(trees: ReadonlyMap<string, string>): CheckpointFolder[] {
  const out: CheckpointFolder[] = [];
  for (const [p, tree] of trees) {
    const m = CHECKPOINT_PATH.exec(p);
    if (m) out.push({ id: m[1]! + m[2]!, path: p, tree });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/** The tree path of checkpoint `id` (`018c2b5cd218` -> `01/8c2b5cd218`). */
export function checkpointPath(id: string): string {
  return `${id.slice(0, 2)}/${id.slice(2)}`;
}

const ULID = /^[0-9a-hjkmnp-tv-z]{26}$/;

/** A checkpoint id as written in a trailer, in lower case: 6 to 64 hex characters, or a ULID (Entire 0.10). */
export function isCheckpointId(text: string): boolean {
  return /^[0-9a-f]{6,64}$/.test(text) || ULID.test(text);
}

/**
 * The checkpoint of a per-checkpoint ref (`refs/entire/checkpoints/56/01M00RJ1HC7TDT6GQBD07F6356`,
 * its root tree id): the folder it is read as, or null for a ref of another shape.
 */
export function checkpointFolderOfRef(ref: string, tree: string): CheckpointFolder | null {
  if (!ref.startsWith(CHECKPOINT_REFS)) return null;
  const folder = ref.slice(CHECKPOINT_REFS.length);
  const m = /^([0-9A-Za-z]{2})\/([0-9A-Za-z]{6,64})$/.exec(folder);
  if (!m || !isCheckpointId(m[2]!.toLowerCase())) return null;
  return { id: m[2]!.toLowerCase(), path: folder, tree };
}

function objectOf(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${what} is not JSON: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
/** A path the metadata lists, in the tree: the branch's (`/01/8c2b5cd218/0/full.jsonl`), or the checkpoint's own (`/0/full.jsonl`, Entire 0.10). */
function treePathIn(folder: CheckpointFolder, v: unknown): string {
  if (typeof v !== "string") return "";
  const p = v.replace(/^\/+/, "");
  return p === "" || p.startsWith(`${folder.path}/`) ? p : `${folder.path}/${p}`;
}

/** A checkpoint's metadata.json; sessions listed without a path are read from the `N/` folders by the caller. */
export function parseCheckpointMetadata(text: string, folder: CheckpointFolder): CheckpointMetadata {
  const raw = objectOf(text, `${folder.path}/metadata.json`);
  const treePath = (v: unknown): string => treePathIn(folder, v);
  const sessions = Array.isArray(raw.sessions)
    ? raw.sessions
        .filter((s): s is Record<string, unknown> => typeof s === "object" && s !== null)
        .map((s) => ({ metadata: treePath(s.metadata), transcript: treePath(s.transcript), prompt: treePath(s.prompt), contentHash: treePath(s.content_hash) }))
    : [];
  return { checkpointId: str(raw.checkpoint_id) ?? folder.id, branch: str(raw.branch), filesTouched: strings(raw.files_touched), sessions, raw };
}

/** A session folder's metadata.json (`0/metadata.json`). */
export function parseSessionMetadata(text: string, where: string): CheckpointSessionMetadata {
  const raw = objectOf(text, where);
  const sessionId = str(raw.session_id);
  if (!sessionId) throw new Error(`${where} names no session_id`);
  const usage: Record<string, number> = {};
  if (typeof raw.token_usage === "object" && raw.token_usage !== null) {
    for (const [k, v] of Object.entries(raw.token_usage)) if (typeof v === "number" && Number.isFinite(v)) usage[k] = v;
  }
  return {
    sessionId,
    agent: str(raw.agent),
    model: str(raw.model),
    createdAt: str(raw.created_at),
    branch: str(raw.branch),
    filesTouched: strings(raw.files_touched),
    tokenUsage: usage,
    raw,
  };
}

/**
 * The sessions of a checkpoint: the paths its metadata lists, else the `N/` folders that hold a
 * metadata.json and a full.jsonl (older checkpoints list none).
 */
export function sessionRefsOf(meta: CheckpointMetadata, folder: CheckpointFolder, blobs: TreeBlobs): CheckpointSessionRef[] {
  if (meta.sessions.length > 0) return meta.sessions.filter((s) => s.metadata !== "" && s.transcript !== "");
  const out: CheckpointSessionRef[] = [];
  for (let i = 0; blobs.has(`${folder.path}/${i}/metadata.json`); i++) {
    const base = `${folder.path}/${i}`;
    if (!blobs.has(`${base}/full.jsonl`)) continue;
    out.push({ metadata: `${base}/metadata.json`, transcript: `${base}/full.jsonl`, prompt: blobs.has(`${base}/prompt.txt`) ? `${base}/prompt.txt` : "", contentHash: blobs.has(`${base}/content_hash.txt`) ? `${base}/content_hash.txt` : "" });
  }
  return out;
}

/** One agent session as found in one checkpoint. */
export interface SessionInCheckpoint {
  checkpointId: string;
  /** 0, 1, … : its folder in the checkpoint */
  index: number;
  meta: CheckpointSessionMetadata;
  /** blob id of its full.jsonl */
  transcriptBlob: string;
  /** its full.jsonl's path in the branch */
  transcriptPath: string;
}

/** Which of two sightings of one session is the later one: created_at, then the checkpoint id. */
export function isLater(a: SessionInCheckpoint, b: SessionInCheckpoint): boolean {
  const ta = a.meta.createdAt ?? "";
  const tb = b.meta.createdAt ?? "";
  if (ta !== tb) return Date.parse(ta) > Date.parse(tb) || (Number.isNaN(Date.parse(tb)) && !Number.isNaN(Date.parse(ta)));
  return a.checkpointId > b.checkpointId;
}

/** The latest sighting of each agent session (one agent session is one Bonsai session). */
export function latestBySession(sightings: readonly SessionInCheckpoint[]): Map<string, SessionInCheckpoint> {
  const out = new Map<string, SessionInCheckpoint>();
  for (const s of sightings) {
    const had = out.get(s.meta.sessionId);
    if (!had || isLater(s, had)) out.set(s.meta.sessionId, s);
  }
  return out;
}

/** The folder index of a session path (`01/8c2b5cd218/3/metadata.json` -> 3). */
export function sessionIndexOf(metadataPath: string): number {
  const m = /\/(\d+)\/[^/]+$/.exec(metadataPath);
  return m ? Number(m[1]) : 0;
}

/** The checkpoint ids named by `Entire-Checkpoint:` trailers (git's trailer values, comma separated). */
export function checkpointIdsOfTrailers(values: string): string[] {
  const out: string[] = [];
  for (const v of values.split(",")) {
    const id = v.trim().toLowerCase();
    if (isCheckpointId(id) && !out.includes(id)) out.push(id);
  }
  return out;
}
