import { describe, expect, it } from "vitest";
import { formatField, formatInt, formatTokens, nodeTitle, summaryPreview } from "./format";

describe("format", () => {
  it("formats token counts", () => {
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(15320)).toBe("15.3K");
    expect(formatInt(150000)).toBe("150,000");
  });

  it("shows a number field read from a file as a number, and anything else as the text it is", () => {
    expect(formatField(12345)).toBe("12,345");
    expect(formatField(0.5, (n) => `$${n.toFixed(4)}`)).toBe("$0.5000");
    expect(formatField('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>');
    expect(formatField({ a: 1 })).toBe('{"a":1}');
    expect(formatField(Number.NaN)).toBe("null");
    expect(formatField(undefined)).toBe("—");
  });

  it("titles nodes by kind", () => {
    const base = { type: "message", role: "assistant" as string | null, toolName: undefined as string | undefined, customType: undefined, stopReason: undefined as string | undefined };
    expect(nodeTitle({ ...base, kind: "assistant", toolName: "read,bash" })).toBe("Assistant → read,bash");
    expect(nodeTitle({ ...base, kind: "assistant", stopReason: "aborted" })).toBe("Assistant · aborted");
    expect(nodeTitle({ ...base, kind: "toolResult", role: "toolResult", toolName: "grep" })).toBe("Tool result · grep");
    expect(nodeTitle({ ...base, kind: "meta", type: "model_change", role: null })).toBe("Model change");
    expect(nodeTitle({ ...base, kind: "meta", type: "some_future_type", role: null })).toBe("some_future_type");
    // Claude Code / Codex metadata lines: titled by the agent's own name of the line's kind
    expect(nodeTitle({ ...base, kind: "meta", type: "agent_event", role: null, customType: "system/turn_duration" } as Parameters<typeof nodeTitle>[0])).toBe("Event · system/turn_duration");
    expect(nodeTitle({ ...base, kind: "meta", type: "agent_event", role: null })).toBe("Agent event");
  });

  it("drops the kind prefix from summary previews", () => {
    expect(summaryPreview("Compaction: Parser work")).toBe("Parser work");
    expect(summaryPreview("Branch summary: tried X")).toBe("tried X");
    expect(summaryPreview("Compaction of Y")).toBe("Compaction of Y");
  });
});
