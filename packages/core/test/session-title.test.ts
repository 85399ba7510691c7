/** The one title rule (session-title.ts): given title, else the session's name, else its first real prompt. */
import { describe, expect, it } from "vitest";
import { firstRealPrompt, isRealPrompt, sessionTitle, type SessionEntry } from "../src/index";

const user = (id: string, content: unknown): SessionEntry => ({ type: "message", id, parentId: null, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content, timestamp: 0 } }) as SessionEntry;

describe("sessionTitle", () => {
  it("takes the given title, else the name, else the first line of the first prompt; null when none", () => {
    expect(sessionTitle({ given: "Mine", name: "pi's name", firstPrompt: "fix it" })).toBe("Mine");
    expect(sessionTitle({ given: "  ", name: "pi's name", firstPrompt: "fix it" })).toBe("pi's name");
    expect(sessionTitle({ name: null, firstPrompt: "\n  fix the parser\nand the printer" })).toBe("fix the parser");
    expect(sessionTitle({ firstPrompt: "x".repeat(300) })).toHaveLength(120);
    expect(sessionTitle({})).toBeNull();
  });

  it("an interruption notice or a local-command echo is no prompt", () => {
    expect(isRealPrompt("[Request interrupted by user for tool use]")).toBe(false);
    expect(isRealPrompt("[Request interrupted by user]")).toBe(false);
    expect(isRealPrompt("<local-command-stdout>ok</local-command-stdout>")).toBe(false);
    expect(isRealPrompt("  ")).toBe(false);
    expect(isRealPrompt("[Request interrupted by user] — and then fix the test")).toBe(true);
    expect(isRealPrompt("fix the parser")).toBe(true);
  });

  it("a Claude Code slash command is titled as typed, not by its markup; a bare /clear is no prompt (seen in real Entire sessions)", () => {
    const clear = "<command-name>/clear</command-name>\n            <command-message>clear</command-message>\n            <command-args></command-args>";
    expect(isRealPrompt(clear)).toBe(false);
    expect(isRealPrompt("<command-message>clear</command-message>\n<command-name>/clear</command-name>")).toBe(false);
    const review = "<command-message>bmad-code-review</command-message>\n<command-name>/bmad-code-review</command-name>\n<command-args>story 1-2</command-args>";
    expect(isRealPrompt(review)).toBe(true);
    expect(sessionTitle({ firstPrompt: review })).toBe("/bmad-code-review story 1-2");
    expect(sessionTitle({ firstPrompt: "<command-name>/init</command-name>\n<command-args></command-args>" })).toBe("/init");
    expect(firstRealPrompt([user("a", clear), user("b", "<local-command-stdout></local-command-stdout>"), user("c", "review story 1-2")])).toBe("review story 1-2");
    // markup a user typed as a prompt stays as typed
    expect(sessionTitle({ firstPrompt: "<div> is not centred" })).toBe("<div> is not centred");
  });

  it("firstRealPrompt skips notices and takes text blocks", () => {
    const entries = [user("a", "[Request interrupted by user for tool use]"), user("b", [{ type: "image", data: "", mimeType: "image/png" }]), user("c", [{ type: "text", text: "make it stream" }])];
    expect(firstRealPrompt(entries)).toBe("make it stream");
    expect(firstRealPrompt(entries.slice(0, 2))).toBeNull();
  });
});
