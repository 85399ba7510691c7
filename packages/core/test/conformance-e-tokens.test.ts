import { describe, expect, it } from "vitest";
import {
  calculateContextTokens,
  calculatePromptTokens,
  estimateContextUsage,
  estimateTokens,
  getLastAssistantUsage,
  shouldCompact,
  type AgentMessage,
  type Usage,
} from "../src/index";
import { A, SessionBuilder, U, usage, user } from "./builders";

const raw = (u: Partial<Usage>): Usage => u as Usage;
const IMG = { type: "image" as const, data: "d", mimeType: "image/png" };

describe("E. token accounting", () => {
  it("case 46: calculateContextTokens", () => {
    expect(calculateContextTokens(usage(1000, 500, 200, 100))).toBe(1800);
    expect(calculateContextTokens(usage(0, 0, 0, 0))).toBe(0);
    expect(calculateContextTokens(raw({ input: 10, output: 5, cacheRead: 1, cacheWrite: 1 }))).toBe(17);
    expect(calculateContextTokens(raw({ input: 10, output: 5, cacheRead: 1, cacheWrite: 1, totalTokens: 5000 }))).toBe(5000);
  });

  it("case 47: calculatePromptTokens", () => {
    expect(calculatePromptTokens(raw({ input: 0, output: 7, cacheRead: 0, cacheWrite: 0, totalTokens: 0 }))).toBe(7);
    expect(calculatePromptTokens(raw({ input: 0, output: 7, cacheRead: 0, cacheWrite: 0, totalTokens: 50 }))).toBe(50);
    expect(calculatePromptTokens(usage(10, 5, 1, 1))).toBe(12);
  });

  it("case 48: getLastAssistantUsage skips aborted and error replies", () => {
    const a = new SessionBuilder().msg(U(1)).msg(A(1, { usage: usage(100, 50) })).msg(U(1)).msg(A(1, { usage: usage(200, 100) }));
    expect(getLastAssistantUsage(a.entries)?.input).toBe(200);
    const b = new SessionBuilder().msg(U(1)).msg(A(1, { usage: usage(100, 50) })).msg(U(1)).msg(A(1, { usage: usage(300, 150), stop: "aborted" }));
    expect(getLastAssistantUsage(b.entries)?.input).toBe(100);
    const c = new SessionBuilder().msg(U(1));
    expect(getLastAssistantUsage(c.entries)).toBeUndefined();
    const d = new SessionBuilder().msg(U(1)).msg(A(1, { usage: usage(100, 50) })).msg(A(1, { usage: usage(300, 150), stop: "error" }));
    expect(getLastAssistantUsage(d.entries)?.input).toBe(100);
  });

  it("case 49: estimateTokens per role (omp: custom, python and fileMention count 0)", () => {
    expect(estimateTokens(user("abcde"))).toBe(2);
    expect(estimateTokens(user([{ type: "text", text: "abcde" }, IMG]))).toBe(2);
    expect(estimateTokens({ role: "toolResult", toolCallId: "c", toolName: "t", content: [IMG, { type: "text", text: "abc" }], isError: false, timestamp: 0 })).toBe(1201);
    const assistant = A(0);
    assistant.content = [
      { type: "toolCall", id: "1", name: "read", arguments: { path: "a.ts" } },
      { type: "thinking", thinking: "abc" },
    ];
    expect(estimateTokens(assistant)).toBe(6);
    expect(estimateTokens({ role: "bashExecution", command: "ls", output: "abc", cancelled: false, truncated: false, timestamp: 0 })).toBe(2);
    expect(estimateTokens({ role: "compactionSummary", summary: "12345", tokensBefore: 0, timestamp: 0 })).toBe(2);
    expect(estimateTokens({ role: "branchSummary", summary: "12345", fromId: "x", timestamp: 0 })).toBe(2);
    expect(estimateTokens({ role: "custom", customType: "t", content: "abcdefgh", display: true, timestamp: 0 })).toBe(0);
    expect(estimateTokens({ role: "hookMessage", customType: "t", content: "abcdefgh", display: true, timestamp: 0 })).toBe(2);
    expect(estimateTokens({ role: "pythonExecution", code: "print(1)", output: "1", cancelled: false, truncated: false, timestamp: 0 })).toBe(0);
    expect(estimateTokens({ role: "fileMention", files: [{ path: "a", content: "abcdefgh" }], timestamp: 0 })).toBe(0);
  });

  it("case 49: lengths are UTF-16 code units, rounded up per message", () => {
    expect(estimateTokens(user("😀"))).toBe(1);
    expect(estimateTokens(user("😀😀a"))).toBe(2);
  });

  it("case 50: shouldCompact", () => {
    const s = { enabled: true, reserveTokens: 10000, keepRecentTokens: 20000 };
    expect(shouldCompact(95000, 100000, s)).toBe(true);
    expect(shouldCompact(90000, 100000, s)).toBe(false);
    expect(shouldCompact(89000, 100000, s)).toBe(false);
    expect(shouldCompact(95000, 100000, { ...s, enabled: false })).toBe(false);
    const d = { enabled: true, reserveTokens: 16384 };
    expect(shouldCompact(183616, 200000, d)).toBe(false);
    expect(shouldCompact(183617, 200000, d)).toBe(true);
  });

  it("display estimate: last usage (aborted included) plus the estimates after it", () => {
    const messages: AgentMessage[] = [U(40), A(4, { usage: usage(100, 20) }), A(4, { usage: usage(500, 20), stop: "aborted" }), U(8), U(4)];
    const est = estimateContextUsage(messages, 1040);
    expect(est).toEqual({ tokens: 523, percent: (523 / 1040) * 100, usageTokens: 520, trailingTokens: 3, lastUsageIndex: 2 });
    const none = estimateContextUsage([U(40), U(8)], 0);
    expect(none).toEqual({ tokens: 12, percent: undefined, usageTokens: 0, trailingTokens: 12, lastUsageIndex: -1 });
  });
});
