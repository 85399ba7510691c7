import { describe, expect, it } from "vitest";
import { eventFrame } from "@bonsai/ipc";
import { frameBytes } from "../src/frame-bytes";

const isAscii = (bytes: Buffer): boolean => bytes.every((b) => b < 0x80);

describe("frames on the wire", () => {
  it("go out in ASCII when few of their characters are not: \\u escapes, the same value once parsed", () => {
    const value = { preview: "a long line cut here…", emoji: "ok 👍 🌳", accents: "café, naïve", lone: "\ud800x", nul: "\u0000", plain: "x".repeat(2000) };
    const frame = eventFrame("sessionUpdated", value);
    const bytes = frameBytes(frame);
    expect(isAscii(bytes)).toBe(true);
    expect(JSON.parse(bytes.toString("utf8"))).toEqual({ t: "event", event: "sessionUpdated", payload: value });
    expect(JSON.parse(bytes.toString("utf8"))).toEqual(JSON.parse(frame));
  });

  it("stay as they are when all ASCII, and in UTF-8 when mostly in another script (escaped they would double)", () => {
    const ascii = JSON.stringify({ a: "plain text", b: [1, 2, 3] });
    expect(frameBytes(ascii).equals(Buffer.from(ascii))).toBe(true);
    const chinese = JSON.stringify({ text: "会话树的每个节点都是一条记录".repeat(50) });
    expect(frameBytes(chinese).equals(Buffer.from(chinese))).toBe(true);
    const mostlyAscii = JSON.stringify({ text: `${"word ".repeat(200)}… 中 𝄞` });
    const escaped = frameBytes(mostlyAscii);
    expect(isAscii(escaped)).toBe(true);
    expect(escaped.toString()).toContain("\\u2026 \\u4e2d \\ud834\\udd1e");
    expect(JSON.parse(escaped.toString())).toEqual(JSON.parse(mostlyAscii));
  });

});
