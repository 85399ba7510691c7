import { describe, expect, it } from "vitest";
import { asciiJson, eventFrame, handleCallFrame } from "../src/frames";

const isAscii = (text: string): boolean => [...text].every((c) => c.charCodeAt(0) < 0x80);

describe("server frames in ASCII", () => {
  it("escapes the few characters outside ASCII; the frame parses to the same value", async () => {
    const value = { preview: "a long line cut here…", emoji: "ok 👍", accents: "café, naïve", lone: "\ud800x", nul: "\u0000", plain: "x".repeat(2000) };
    const event = eventFrame("sessionUpdated", value);
    expect(isAscii(event)).toBe(true);
    expect(JSON.parse(event)).toEqual({ t: "event", event: "sessionUpdated", payload: value });
    const reply = await handleCallFrame(JSON.stringify({ t: "call", id: 3, method: "echo", params: {} }), async () => ({ ok: true, value }));
    expect(isAscii(reply)).toBe(true);
    expect(JSON.parse(reply)).toEqual({ t: "result", id: 3, result: { ok: true, value } });
  });

  it("leaves ASCII text as it is, and text mostly in another script in UTF-8 (escaped it would double)", () => {
    const ascii = JSON.stringify({ a: "plain text", b: [1, 2, 3] });
    expect(asciiJson(ascii)).toBe(ascii);
    const chinese = JSON.stringify({ text: "会话树的每个节点都是一条记录".repeat(50) });
    expect(asciiJson(chinese)).toBe(chinese);
    const mostlyAscii = JSON.stringify({ text: `${"word ".repeat(200)}…` });
    expect(asciiJson(mostlyAscii)).not.toBe(mostlyAscii);
    expect(JSON.parse(asciiJson(mostlyAscii))).toEqual(JSON.parse(mostlyAscii));
  });
});
