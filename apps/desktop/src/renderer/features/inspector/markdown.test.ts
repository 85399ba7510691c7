import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown } from "./markdown";

describe("parseMarkdown", () => {
  it("reads headings, paragraphs, lists, quotes, rules and fenced code", () => {
    const blocks = parseMarkdown(["# Goal", "", "Fix the **build**", "today.", "", "- one", "- `two`", "", "1. first", "2) second", "> quoted", "---", "```ts", "const a = 1;", "", "```", "tail"].join("\n"));
    expect(blocks.map((b) => b.t)).toEqual(["heading", "para", "list", "list", "quote", "rule", "code", "para"]);
    expect(blocks[0]).toEqual({ t: "heading", level: 1, c: [{ t: "text", v: "Goal" }] });
    expect(blocks[1]).toEqual({ t: "para", c: [{ t: "text", v: "Fix the " }, { t: "strong", c: [{ t: "text", v: "build" }] }, { t: "text", v: "\ntoday." }] });
    expect(blocks[2]).toEqual({ t: "list", ordered: false, items: [[{ t: "text", v: "one" }], [{ t: "code", v: "two" }]] });
    expect(blocks[3]).toMatchObject({ t: "list", ordered: true });
    expect(blocks[6]).toEqual({ t: "code", lang: "ts", v: "const a = 1;\n" });
  });

  it("keeps an unterminated fence as code to the end", () => {
    expect(parseMarkdown("```\nabc\ndef")).toEqual([{ t: "code", lang: "", v: "abc\ndef" }]);
  });

  it("treats markup-looking text as text", () => {
    expect(parseMarkdown("<script>alert(1)</script>")).toEqual([{ t: "para", c: [{ t: "text", v: "<script>alert(1)</script>" }] }]);
  });
});

describe("parseInline", () => {
  it("reads code, emphasis and http links only", () => {
    expect(parseInline("a *b* [site](https://x.org) [bad](javascript:alert(1))")).toEqual([
      { t: "text", v: "a " },
      { t: "em", c: [{ t: "text", v: "b" }] },
      { t: "text", v: " " },
      { t: "link", href: "https://x.org", c: [{ t: "text", v: "site" }] },
      { t: "text", v: " [bad](javascript:alert(1))" },
    ]);
  });

  it("does not read emphasis inside inline code", () => {
    expect(parseInline("`a*b*c`")).toEqual([{ t: "code", v: "a*b*c" }]);
  });
});
