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

const jsonMadeFor = (value: unknown): string | undefined => (typeof value === "object" && value !== null ? madeJson.get(value) : undefined);

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
