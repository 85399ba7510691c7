import { describe, expect, it } from "vitest";
import { isContextOverflow } from "../src/index";

const errorMsg = (errorMessage?: string) => ({ stopReason: "error" as const, errorMessage });

describe("overflow detection of a stored assistant message (its error text, or usage over the window)", () => {
  it.each([
    "prompt is too long: 213462 tokens > 200000 maximum",
    "Your input exceeds the context window of this model",
    "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)",
    "This model's maximum prompt length is 131072 but the request contains 537812 tokens",
    "Please reduce the length of the messages or completion",
    "This endpoint's maximum context length is 200000 tokens. However, you requested about 250000 tokens",
    "the request exceeds the available context size, try increasing it",
    "tokens to keep from the initial prompt is greater than the context length",
    "prompt token count of 130000 exceeds the limit of 128000",
    "invalid params, context window exceeds limit",
    "Your request exceeded model token limit: 262144 (requested: 300000)",
    "context_length_exceeded",
    "Too many tokens",
    "token limit exceeded",
    "request_too_large",
    "400 status code (no body)",
    "413 (no body)",
    "input is too long for requested model",
  ])("case 120: overflow: %s", (message) => {
    expect(isContextOverflow(errorMsg(message), 200000)).toBe(true);
  });

  it.each([
    "429 status code (no body)",
    "429 Too Many Requests",
    "overloaded_error",
    " 400 status code (no body)",
    "Prompt contains 300000 tokens and is too large for model with 128000 maximum context length",
    "model_context_window_exceeded",
  ])("case 120: not overflow: %j", (message) => {
    expect(isContextOverflow(errorMsg(message), 200000)).toBe(false);
  });

  it("case 120: no message, or a matching message on a successful reply, is not overflow", () => {
    expect(isContextOverflow(errorMsg(undefined), 200000)).toBe(false);
    expect(isContextOverflow(errorMsg(""), 200000)).toBe(false);
    expect(isContextOverflow({ stopReason: "stop", errorMessage: "prompt is too long" }, 200000)).toBe(false);
  });

  it("case 120: silent overflow", () => {
    const reply = (cacheRead: number, stopReason: "stop" | "length" = "stop") => ({ stopReason, usage: { input: 150000, cacheRead } });
    expect(isContextOverflow(reply(60000), 200000)).toBe(true);
    expect(isContextOverflow(reply(50000), 200000)).toBe(false);
    expect(isContextOverflow(reply(60000), 0)).toBe(false);
    expect(isContextOverflow(reply(60000))).toBe(false);
    expect(isContextOverflow(reply(60000, "length"), 200000)).toBe(false);
  });
});
