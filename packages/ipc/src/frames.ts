/**
 * The WebSocket protocol (browser mode): JSON text frames.
 *   client -> server  {"t":"call","id":7,"method":"listSessions","params":{}}
 *   server -> client  {"t":"result","id":7,"result":{"ok":true,"value":...}}
 *   server -> client  {"t":"result-at","id":7,"href":"/answer/…"}   (a large value: see LargeAnswers)
 *   server -> client  {"t":"event","event":"sessionUpdated","payload":{...}}
 * A frame that is not a call gets a result with id null (or its id) and a bad_frame error.
 */
import { z } from "zod";
import type { Dispatch } from "./dispatch";
import type { CallResult } from "./errors";

/**
 * The largest frame a client may send (the server's WebSocket maxPayload; a bigger frame closes the
 * connection with 1009). It fits the largest legal call of the contract: a 1,000,000-character
 * prompt even when every character is escaped (6 bytes), or a committed compaction at its limits;
 * files travel in chunks of UPLOAD_CHUNK_BYTES (uploadChunk). packages/ipc/test/frame-limit.test.ts
 * builds the largest call of every method and checks it fits.
 */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

const callFrameSchema = z.object({
  t: z.literal("call"),
  id: z.number().int().nonnegative(),
  method: z.string().max(100),
  params: z.unknown().optional(),
});

export interface ResultFrame {
  t: "result";
  id: number | null;
  result: CallResult;
}

export interface EventFrame {
  t: "event";
  event: string;
  payload: unknown;
}

/**
 * Where a page asks whether its token is taken (`Authorization: Bearer`): 204 when it is, 403 when
 * it is refused. A browser cannot read why a WebSocket was refused; after a socket closed without
 * opening, the client asks here, so that a refused token is told apart from a lost connection.
 */
export const TOKEN_CHECK_PATH = "/token-check";

/** where a server keeps large answers for their download: ANSWER_PATH + an unguessable id */
export const ANSWER_PATH = "/answer/";

/** The call succeeded and its value is the JSON at `href` on the server, for one GET within a minute (LargeAnswers). */
export interface ResultAtFrame {
  t: "result-at";
  id: number;
  href: string;
}

export type ServerFrame = ResultFrame | ResultAtFrame | EventFrame;

/**
 * Large values made gzipped beforehand (withGzipJson: a team archive's kept open answer) travel
 * beside the WebSocket: the server keeps them for one HTTP download and the frame gives its address
 * (result-at), which the client fetches (ws-client.ts). A 100,000-entry session's open is 6.3 MB of
 * JSON, 1.9 MB gzipped: the browser takes it compressed and decompresses it off the page's thread,
 * and no DevTools client copies it as it does every WebSocket frame (docs/TEAM.md). Other values
 * stay in their frame: compressing them on the way took longer than it saved on loopback.
 */
export interface LargeAnswers {
  /** gzipped values whose JSON has at least this many characters are parked */
  fromChars: number;
  /**
   * keeps a value for one download: its path, or undefined when it cannot be kept (it goes in its
   * frame, as it does when parking fails)
   */
  park(packed: GzipJson): string | undefined | Promise<string | undefined>;
}

/** A value's JSON made and gzipped beforehand (withGzipJson). */
export interface GzipJson {
  gzip: Uint8Array;
  /** the JSON's length in characters */
  chars: number;
  /** the JSON itself, for a frame that carries the value */
  text: () => string;
  /** where the gzip is kept, for a server that hands out downloads of what it keeps (opaque here) */
  source?: unknown;
}

/** Handle one incoming text frame; always resolves to the reply frame (serialized). */
export async function handleCallFrame(text: string, dispatch: Dispatch, large?: LargeAnswers): Promise<string> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return JSON.stringify(badFrame(null, "frame is not JSON"));
  }
  const parsed = callFrameSchema.safeParse(raw);
  if (!parsed.success) {
    const id = typeof (raw as { id?: unknown } | null)?.id === "number" ? (raw as { id: number }).id : null;
    return JSON.stringify(badFrame(id, "frame must be {t:\"call\", id, method, params}"));
  }
  const { id, method, params } = parsed.data;
  const result = await dispatch(method, params);
  if (large !== undefined && result.ok) {
    const href = await parkedValue(result.value, large);
    if (href !== undefined) return JSON.stringify({ t: "result-at", id, href } satisfies ResultAtFrame);
  }
  return serializeFrame({ t: "result", id, result });
}

/** the address of a large gzipped value once parked, or undefined: it goes in the frame (as when parking failed) */
async function parkedValue(value: unknown, large: LargeAnswers): Promise<string | undefined> {
  const packed = typeof value === "object" && value !== null ? madeGzip.get(value) : undefined;
  if (packed === undefined || packed.chars < large.fromChars) return undefined;
  try {
    return await large.park(packed);
  } catch {
    return undefined;
  }
}

export function eventFrame(event: string, payload: unknown): string {
  return serializeFrame({ t: "event", event, payload });
}

function badFrame(id: number | null, message: string): ResultFrame {
  return { t: "result", id, result: { ok: false, error: { code: "bad_frame", message } } };
}

/** JSON texts made beforehand for values handlers return (see withJson) */
const madeJson = new WeakMap<object, string>();

/**
 * Gives `value` the JSON text it already has (a store worker's answer, as the worker wrote it):
 * a frame that carries the value (as a call's value, or one of its properties) takes this text
 * instead of serializing the value again. The value must not change afterwards.
 */
export function withJson<T extends object>(value: T, json: string): T {
  madeJson.set(value, json);
  return value;
}

/** values whose JSON was made and gzipped beforehand (see withGzipJson) */
const madeGzip = new WeakMap<object, GzipJson>();

/**
 * Gives `value` the gzip of its JSON (a kept answer as it is stored): parked, it is sent as it is;
 * a frame that carries it takes `text()`. The value must not change afterwards.
 */
export function withGzipJson<T extends object>(value: T, packed: GzipJson): T {
  madeGzip.set(value, packed);
  return value;
}

const jsonMadeFor = (value: unknown): string | undefined => (typeof value === "object" && value !== null ? (madeJson.get(value) ?? madeGzip.get(value)?.text()) : undefined);

/** a call's value as JSON, with the texts withJson gave it or its properties */
function valueJson(value: unknown): string | undefined {
  const made = jsonMadeFor(value);
  if (made !== undefined) return made;
  if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.values(value).some((v) => jsonMadeFor(v) !== undefined)) return undefined;
  const parts: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const text = jsonMadeFor(v) ?? JSON.stringify(v);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(",")}}`;
}

function serializeFrame(frame: ServerFrame): string {
  try {
    if (frame.t === "result" && frame.result.ok) {
      const made = valueJson(frame.result.value);
      if (made !== undefined) return `{"t":"result","id":${JSON.stringify(frame.id)},"result":{"ok":true,"value":${made}}}`;
    }
    return JSON.stringify(frame);
  } catch (err) {
    // e.g. a BigInt or a cycle in a handler's value: report it instead of dropping the call
    const id = frame.t === "result" ? frame.id : null;
    const message = `result could not be serialized: ${err instanceof Error ? err.message : String(err)}`;
    return JSON.stringify({ t: "result", id, result: { ok: false, error: { code: "internal", message } } });
  }
}
