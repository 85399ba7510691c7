/**
 * The WebSocket protocol (browser mode): JSON text frames.
 *   client -> server  {"t":"call","id":7,"method":"listSessions","params":{}}
 *   server -> client  {"t":"result","id":7,"result":{"ok":true,"value":...}}
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

export type ServerFrame = ResultFrame | EventFrame;

/** Handle one incoming text frame; always resolves to the reply frame (serialized). */
export async function handleCallFrame(text: string, dispatch: Dispatch): Promise<string> {
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
  return serializeFrame({ t: "result", id, result });
}

export function eventFrame(event: string, payload: unknown): string {
  return serializeFrame({ t: "event", event, payload });
}

function badFrame(id: number | null, message: string): ResultFrame {
  return { t: "result", id, result: { ok: false, error: { code: "bad_frame", message } } };
}

/** a character outside ASCII (every UTF-16 code unit of one, surrogates included) */
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;
/** escaped only while at most one character in this many is outside ASCII (text in other scripts stays UTF-8) */
const ESCAPE_WITHIN = 100;

/**
 * JSON text with its characters outside ASCII written as \u escapes (the same value once parsed),
 * when they are few. A browser keeps an ASCII WebSocket message as one-byte text; a single character
 * outside ASCII makes it decode the whole message from UTF-8 into two-byte text. A 100,000-entry
 * session's skeleton (5.4 MB with 1,103 such characters in its previews) took the page about 320 ms
 * to take in and parse that way, 190 ms in ASCII (docs/PERFORMANCE.md). Text mostly in another
 * script is left as it is: escaped, it would take twice the bytes.
 */
export function asciiJson(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  let count = 0;
  const escaped = text.replace(NON_ASCII_ALL, (c) => {
    count++;
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
  return count * ESCAPE_WITHIN <= text.length ? escaped : text;
}

function serializeFrame(frame: ServerFrame): string {
  try {
    return asciiJson(JSON.stringify(frame));
  } catch (err) {
    // e.g. a BigInt or a cycle in a handler's value: report it instead of dropping the call
    const id = frame.t === "result" ? frame.id : null;
    const message = `result could not be serialized: ${err instanceof Error ? err.message : String(err)}`;
    return JSON.stringify({ t: "result", id, result: { ok: false, error: { code: "internal", message } } });
  }
}
