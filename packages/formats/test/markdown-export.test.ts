/** The Markdown export of a session's path: what each kind of entry becomes, fences that hold any text. */
import { describe, expect, it } from "vitest";
import type { SessionEntry, SessionHeader } from "@bonsai/core";
import { renderSessionMarkdown } from "../src/index";

const header: SessionHeader = { type: "session", version: 3, id: "s-md", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/work/p" };
const at = "2026-01-01T00:00:01.000Z";
const path = [
  { type: "message", id: "u1", parentId: null, timestamp: at, message: { role: "user", content: "Fix the parser", timestamp: 1 } },
  {
    type: "message",
    id: "a1",
    parentId: "u1",
    timestamp: at,
    message: {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "look first" },
        { type: "text", text: "Reading it." },
        { type: "toolCall", id: "c1", name: "read", arguments: { path: "src/parse.ts" } },
      ],
      provider: "openai",
      model: "gpt",
      stopReason: "toolUse",
      timestamp: 2,
    },
  },
  { type: "message", id: "t1", parentId: "a1", timestamp: at, message: { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "```ts\ncode\n```" }], isError: false, prunedAt: 5, timestamp: 3 } },
  { type: "compaction", id: "k1", parentId: "t1", timestamp: at, summary: "## Goal\nFix the parser", firstKeptEntryId: "t1", tokensBefore: 1200 },
  { type: "label", id: "l1", parentId: "k1", timestamp: at, targetId: "u1", label: "start" },
] as unknown as SessionEntry[];

describe("renderSessionMarkdown", () => {
  it("renders the title, the header facts and each entry of the path that shows in a transcript", () => {
    const md = renderSessionMarkdown(header, "Parser fix", path);
    expect(md.startsWith("# Parser fix\n\n- Session: `s-md`\n- Started: 2026-01-01T00:00:00.000Z\n- Folder: `/work/p`\n- Entries on this path: 5\n")).toBe(true);
    expect(md).toContain("## User\n\nFix the parser");
    expect(md).toContain("## Assistant (openai/gpt)\n\n<details><summary>Thinking</summary>\n\nlook first\n\n</details>\n\nReading it.\n\n**Tool call** `read`");
    // a fence longer than any run of backticks in the text
    expect(md).toContain("### Tool result: `read` (pruned)\n\n````\n```ts\ncode\n```\n````");
    expect(md).toContain("## Compaction summary\n\n*1200 tokens before; kept from entry t1*\n\n## Goal\nFix the parser");
    expect(md).not.toContain("start");
    expect(md.endsWith("\n")).toBe(true);
  });

  it("titles an untitled session by its id", () => {
    expect(renderSessionMarkdown(header, null, []).split("\n")[0]).toBe("# Session s-md");
  });
});
