import { describe, expect, it } from "vitest";
import { serializeConversation } from "../src/serialize-conversation";
import type { LlmMessage, UserMessage } from "../src/entries";
import { assistantMessage, call, image, toolResult } from "./support/notation";

const user = (content: UserMessage["content"]): UserMessage => ({ role: "user", content, timestamp: 0 });

describe("I. serialization", () => {
  it("case 77: mixed messages", () => {
    const messages: LlmMessage[] = [
      user([{ type: "text", text: "a" }, image(), { type: "text", text: "b" }]),
      assistantMessage([
        { type: "thinking", thinking: "t1" },
        { type: "text", text: "x1" },
        call("bash", { command: "ls -la", timeout: 5, opts: { a: [1, "q"] } }),
        { type: "thinking", thinking: "t2" },
        { type: "text", text: "x2" },
        call("read", {}),
      ]),
      toolResult([
        { type: "text", text: "r1" },
        { type: "text", text: "r2" },
      ]),
    ];
    expect(serializeConversation(messages)).toBe(
      '[User]: ab\n\n[Assistant thinking]: t1\nt2\n\n[Assistant]: x1\nx2\n\n[Assistant tool calls]: bash(command="ls -la", timeout=5, opts={"a":[1,"q"]}); read()\n\n[Tool result]: r1r2',
    );
  });

  it("case 78: empty parts omitted", () => {
    expect(serializeConversation([user(""), user([image()]), toolResult([image()]), assistantMessage([])])).toBe("");
  });

  it("case 78: an empty thinking or text block still yields its part", () => {
    const message = assistantMessage([
      { type: "thinking", thinking: "" },
      { type: "text", text: "" },
    ]);
    expect(serializeConversation([message])).toBe("[Assistant thinking]: \n\n[Assistant]: ");
  });

  it("case 79: no truncation (omp)", () => {
    const long = "x".repeat(5000);
    expect(serializeConversation([toolResult([{ type: "text", text: long }])])).toBe(`[Tool result]: ${long}`);
    const short = "x".repeat(1500);
    expect(serializeConversation([toolResult([{ type: "text", text: short }])])).toBe(`[Tool result]: ${short}`);
  });
});
