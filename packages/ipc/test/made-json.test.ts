import { describe, expect, it } from "vitest";
import { handleCallFrame, withJson } from "../src/frames";

describe("result frames", () => {
  it("carry a value's JSON made beforehand (withJson) as it is, as the value or one of its properties", async () => {
    const made = withJson({ a: 1, b: ["x"] }, '{"a": 1, "b": ["x"]}');
    const alone = await handleCallFrame(JSON.stringify({ t: "call", id: 4, method: "m", params: {} }), async () => ({ ok: true, value: made }));
    expect(alone).toBe('{"t":"result","id":4,"result":{"ok":true,"value":{"a": 1, "b": ["x"]}}}');
    const inside = await handleCallFrame(JSON.stringify({ t: "call", id: 5, method: "m", params: {} }), async () => ({ ok: true, value: { session: { id: "s", title: "é" }, skip: undefined, skeleton: made } }));
    expect(inside).toBe('{"t":"result","id":5,"result":{"ok":true,"value":{"session":{"id":"s","title":"é"},"skeleton":{"a": 1, "b": ["x"]}}}}');
    expect(JSON.parse(inside)).toEqual({ t: "result", id: 5, result: { ok: true, value: { session: { id: "s", title: "é" }, skeleton: { a: 1, b: ["x"] } } } });
    // values without one are serialized as usual; errors too
    const plain = await handleCallFrame(JSON.stringify({ t: "call", id: 6, method: "m", params: {} }), async () => ({ ok: true, value: { a: [1, { b: 2 }] } }));
    expect(plain).toBe('{"t":"result","id":6,"result":{"ok":true,"value":{"a":[1,{"b":2}]}}}');
    const failed = await handleCallFrame(JSON.stringify({ t: "call", id: 7, method: "m", params: {} }), async () => ({ ok: false, error: { code: "internal", message: "no" } }));
    expect(JSON.parse(failed)).toEqual({ t: "result", id: 7, result: { ok: false, error: { code: "internal", message: "no" } } });
  });
});
