import { describe, expect, it } from "vitest";
import {
  EVENT_NAMES,
  METHOD_NAMES,
  contract,
  createApi,
  createDispatcher,
  events,
  handleCallFrame,
  IpcError,
  settingsSchema,
  type Handlers,
  type RawBridge,
} from "../src/index";
import { DEFAULT_SETTINGS } from "@bonsai/core";

/** Handlers that echo which method ran; used to check routing and validation without a backend. */
function echoHandlers(): Handlers {
  const h: Record<string, (input: unknown) => unknown> = {};
  for (const name of METHOD_NAMES) h[name] = (input) => ({ method: name, input });
  return h as unknown as Handlers;
}

describe("the contract", () => {
  it("names every method and event exactly once", () => {
    expect(new Set(METHOD_NAMES).size).toBe(METHOD_NAMES.length);
    expect(Object.keys(contract).sort()).toEqual([...METHOD_NAMES].sort());
    expect(Object.keys(events).sort()).toEqual([...EVENT_NAMES].sort());
  });

  it("Handlers<Contract> rejects a missing handler at compile time", () => {
    const { listSessions: _dropped, ...rest } = echoHandlers();
    // @ts-expect-error listSessions is missing
    const incomplete: Handlers = rest;
    expect(Object.keys(incomplete)).not.toContain("listSessions");
  });

  it("Handlers<Contract> rejects a handler with the wrong output at compile time", () => {
    const handlers = echoHandlers();
    // @ts-expect-error listSessions must return { sessions: SessionSummaryDto[] }
    handlers.listSessions = () => ({ sessions: "none" });
    // @ts-expect-error getEntry's input has no field `nope`
    handlers.getEntry = (input) => ({ entry: { id: input.nope, type: "message", parentId: null, timestamp: "" }, tokens: 0, prunedOriginal: null, onActivePath: false });
    expect(typeof handlers.listSessions).toBe("function");
  });

  it("the default settings satisfy the settings schema", () => {
    expect(settingsSchema.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
  });
});

describe("dispatch", () => {
  const dispatch = createDispatcher(echoHandlers());

  it("validates every method's input: a wrong type gets invalid_payload", async () => {
    for (const name of METHOD_NAMES) {
      const r = await dispatch(name, { sessionId: 42, unexpected: true });
      expect(r.ok, name).toBe(false);
      if (!r.ok) expect(r.error.code, name).toBe("invalid_payload");
    }
  });

  it("passes a valid payload to its handler", async () => {
    const r = await dispatch("getEntry", { sessionId: "s1", entryId: "e1" });
    expect(r).toEqual({ ok: true, value: { method: "getEntry", input: { sessionId: "s1", entryId: "e1" } } });
  });

  it("names the offending field", async () => {
    const r = await dispatch("setSettings", { patch: { compaction: { reserveTokens: -5 } } });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("invalid_payload");
      expect(r.error.issues?.[0]?.path).toBe("patch.compaction.reserveTokens");
    }
    const typo = await dispatch("setSettings", { patch: { compaction: { reserveTokenz: 5 } } });
    expect(typo.ok).toBe(false);
  });

  it("refuses an import with neither paths nor uploads", async () => {
    const r = await dispatch("importSessions", {});
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain("at least one path or upload");
  });

  it("refuses unknown methods and non-string names", async () => {
    for (const m of ["nope", 7, null, "__proto__", "constructor"]) {
      const r = await dispatch(m, {});
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe("unknown_method");
    }
  });

  it("turns handler failures into typed errors", async () => {
    const handlers = echoHandlers();
    handlers.getSkeleton = () => {
      throw new IpcError("not_found", "no session s9");
    };
    handlers.listSessions = () => {
      throw new TypeError("boom");
    };
    const seen: unknown[] = [];
    const d = createDispatcher(handlers, { onInternalError: (e) => seen.push(e) });
    expect(await d("getSkeleton", { sessionId: "s9" })).toEqual({ ok: false, error: { code: "not_found", message: "no session s9" } });
    const r = await d("listSessions", {});
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: "internal", message: "listSessions failed: boom" });
    expect(seen).toHaveLength(1);
  });
});

describe("WebSocket frames", () => {
  const dispatch = createDispatcher(echoHandlers());

  it("answers a call frame with its id", async () => {
    const reply = JSON.parse(await handleCallFrame(JSON.stringify({ t: "call", id: 3, method: "listSessions", params: {} }), dispatch));
    expect(reply).toMatchObject({ t: "result", id: 3, result: { ok: true } });
  });

  it("answers garbage with bad_frame", async () => {
    for (const text of ["not json", "[]", "null", JSON.stringify({ t: "call", id: 4 }), JSON.stringify({ id: -1, method: "x" })]) {
      const reply = JSON.parse(await handleCallFrame(text, dispatch)) as { result: { ok: boolean; error: { code: string } } };
      expect(reply.result.ok).toBe(false);
      expect(reply.result.error.code).toBe("bad_frame");
    }
  });
});

describe("createApi", () => {
  it("unwraps results, throws IpcError, and routes events by name", async () => {
    const dispatch = createDispatcher(echoHandlers());
    let emit: (event: string, payload: unknown) => void = () => undefined;
    const raw = { subscribe: (l: typeof emit) => ((emit = l), () => undefined) } as Record<string, unknown>;
    for (const name of METHOD_NAMES) raw[name] = (input: unknown) => dispatch(name, input);
    const api = createApi(raw as RawBridge);

    expect(await api.listSessions()).toEqual({ method: "listSessions", input: {} });
    await expect(api.getEntry({ sessionId: "", entryId: "x" })).rejects.toMatchObject({ name: "IpcError", code: "invalid_payload" });

    const got: string[] = [];
    const off = api.on("notification", (p) => got.push(p.message));
    emit("notification", { level: "info", message: "hello", sessionId: null });
    emit("turnDelta", { sessionId: "s", requestId: null, kind: "text", delta: "x" });
    off();
    emit("notification", { level: "info", message: "after", sessionId: null });
    expect(got).toEqual(["hello"]);
  });
});
