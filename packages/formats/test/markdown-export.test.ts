/** The Markdown export of a session's path: what each kind of entry becomes, fences that hold any text. */
import MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";
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

describe("the Markdown export's own lines with hostile session values", () => {
  const hostile = "x)\n\n# Injected heading\n<script>alert(1)</script> [link](https://evil.example) **bold** `tick` ``` &amp; #";
  const evilHeader = { ...header, id: "id``with`ticks", cwd: "/w\n# cwd heading\n`", timestamp: "2026 <b>now</b>\n## ts heading" } as SessionHeader;
  const evilPath = [
    { type: "message", id: "a1", parentId: null, timestamp: at, message: { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "re`ad\n# tool heading", arguments: {} }], provider: "openai", model: hostile, errorMessage: hostile, timestamp: 2 } },
    { type: "message", id: "t1", parentId: "a1", timestamp: at, message: { role: "toolResult", toolCallId: "c1", toolName: "``\n## result heading", content: "ok", isError: false, timestamp: 3 } },
    { type: "compaction", id: "k1", parentId: "t1", timestamp: at, summary: "Summary text", firstKeptEntryId: hostile, tokensBefore: hostile },
    { type: "model_change", id: "m1", parentId: "k1", timestamp: at, provider: "p", modelId: hostile },
    { type: "thinking_level_change", id: "h1", parentId: "m1", timestamp: at, thinkingLevel: hostile },
    { type: "custom_message", id: "c2", parentId: "h1", timestamp: at, customType: hostile, content: "custom body" },
  ] as unknown as SessionEntry[];

  /** markdown-it (CommonMark, raw HTML on so that any would show) over the export: the block tokens */
  const parse = (md: string): Token[] => new MarkdownIt("commonmark", { html: true }).parse(md, {});
  /** what an inline token reads as: its text and code, without the syntax */
  const reads = (t: Token) => (t.children ?? []).map((c) => (c.type === "text" || c.type === "code_inline" ? c.content : c.type === "softbreak" ? "\n" : "")).join("");
  const oneLine = (s: string) => s.replace(/\n/gu, " ");

  it("stay one line of literal text: no heading, link, HTML or emphasis comes from a value, and each value reads back whole", () => {
    const md = renderSessionMarkdown(evilHeader, hostile, evilPath);
    const blocks = parse(md);
    const inline = blocks.flatMap((t) => t.children ?? []);
    const headings = blocks.flatMap((t, i) => (t.type === "heading_open" ? [`${t.tag} ${reads(blocks[i + 1]!)}`] : []));
    expect(headings).toEqual([`h1 ${oneLine(hostile)}`, `h2 Assistant (openai/${oneLine(hostile)})`, "h3 Tool result: `` ## result heading", "h2 Compaction summary", `h2 ${oneLine(hostile)}`]);
    expect([...blocks, ...inline].filter((t) => ["html_inline", "html_block", "link_open", "image"].includes(t.type))).toEqual([]);
    expect(inline.filter((t) => t.type === "strong_open")).toHaveLength(1); // "Tool call", the export's own
    const lines = blocks.filter((t) => t.type === "inline").map(reads);
    // the header facts: the id and folder as code, the start as text
    expect(lines).toEqual(expect.arrayContaining([`Session: ${evilHeader.id}`, `Started: ${oneLine(evilHeader.timestamp)}`, `Folder: ${oneLine(evilHeader.cwd)}`, "Tool call re`ad # tool heading"]));
    // the notes: one emphasis each around the whole value
    for (const note of [`Error: ${oneLine(hostile)}`, `${oneLine(hostile)} tokens before; kept from entry ${oneLine(hostile)}`, `Model: p/${oneLine(hostile)}`, `Thinking level: ${oneLine(hostile)}`]) {
      const block = blocks.find((t) => t.type === "inline" && reads(t) === note);
      expect(block, note).toBeDefined();
      expect(block!.children!.map((c) => c.type).filter((type) => type.startsWith("em_"))).toEqual(["em_open", "em_close"]);
    }
  });
});
