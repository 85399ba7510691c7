import { describe, expect, it } from "vitest";
import { markdownTokens, MARKDOWN_MAX_NESTING, renderMarkdown } from "../src/markdown";

const squash = (html: string): string => html.replace(/\n/g, "");

describe("renderMarkdown (markdown-it, the one dialect)", () => {
  it("renders CommonMark blocks and inlines, GFM tables and strike-through", () => {
    expect(squash(renderMarkdown("# Title\n\nSome **bold**, *italic*, `code` and ~~old~~."))).toBe("<h1>Title</h1><p>Some <strong>bold</strong>, <em>italic</em>, <code>code</code> and <s>old</s>.</p>");
    expect(squash(renderMarkdown("- a\n- b\n  - c\n\n1. one\n2. two"))).toBe("<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul><ol><li>one</li><li>two</li></ol>");
    expect(squash(renderMarkdown("```ts\nconst a = 1 < 2;\n```"))).toBe('<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre>');
    expect(squash(renderMarkdown("> quoted\n> more"))).toBe("<blockquote><p>quoted\nmore</p></blockquote>".replace("\n", ""));
    expect(squash(renderMarkdown("| a | b |\n|---|---|\n| 1 | 2 |"))).toBe("<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>");
    expect(squash(renderMarkdown("a\n\n---\n\nb"))).toBe("<p>a</p><hr /><p>b</p>");
  });

  it("shows raw HTML as text and keeps only http(s) and mailto links; images become links", () => {
    expect(squash(renderMarkdown('<script>alert("x")</script> <img src=x onerror=alert(1)>'))).toBe("<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;</p>");
    expect(squash(renderMarkdown("[ok](https://example.com/a?b=1&c=2) [bad](javascript:alert(1)) [v](VBScript:x) [d](data:text/html,x)"))).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2" rel="noreferrer noopener" target="_blank">ok</a> [bad](javascript:alert(1)) [v](VBScript:x) [d](data:text/html,x)</p>',
    );
    expect(squash(renderMarkdown("![logo](https://example.com/logo.png) ![x](data:image/svg+xml,<svg onload=alert(1)>)"))).toBe(
      '<p><a href="https://example.com/logo.png" rel="noreferrer noopener" target="_blank">[image: logo]</a> ![x](data:image/svg+xml,&lt;svg onload=alert(1)&gt;)</p>',
    );
    expect(renderMarkdown('[x](https://e.com/"onmouseover="alert(1))')).not.toMatch(/"onmouseover/);
    expect(renderMarkdown("https://bare.example/x")).not.toContain("<a");
  });

  it("keeps link targets intact", () => {
    expect(squash(renderMarkdown("[x](https://x/**y**)"))).toBe('<p><a href="https://x/**y**" rel="noreferrer noopener" target="_blank">x</a></p>');
    expect(squash(renderMarkdown("`**not bold**` and `<b>`"))).toBe("<p><code>**not bold**</code> and <code>&lt;b&gt;</code></p>");
  });

  it("completes adversarial input with the right structure", () => {
    // 10 KB of ">": quotes nest only to the limit, the rest is text (no stack overflow)
    const quotes = markdownTokens(">".repeat(10_000));
    expect(quotes.filter((t) => t.type === "blockquote_open").length).toBeLessThanOrEqual(MARKDOWN_MAX_NESTING);
    expect(squash(renderMarkdown(">".repeat(10_000)))).toBe(`<pre><code>${"&gt;".repeat(10_000)}</code></pre>`);
    expect(renderMarkdown(`${">".repeat(30)} kept`)).toContain("kept");
    // 81 KB of backtick runs: every run that closes is a code span
    const ticks = renderMarkdown("`a`` ".repeat(16_200));
    expect(ticks.length).toBeGreaterThan(81_000);
    // 100 KB of "[a](": no link, all text
    const links = renderMarkdown("[a](".repeat(25_000));
    expect(links).not.toContain("<a ");
    expect(links).toContain("[a](".repeat(100));
    // deep lists and emphasis
    expect(renderMarkdown(`${"1. ".repeat(10_000)}x`)).toMatch(/^<pre><code>1\. 1\. .*x\n<\/code><\/pre>/s);
    expect(renderMarkdown(`${"1. ".repeat(5)}x`)).toContain("<ol>");
    expect(renderMarkdown("*a **".repeat(20_000)).length).toBeGreaterThan(100_000);
  });

  it("survives empty and unclosed input", () => {
    expect(renderMarkdown("")).toBe("");
    expect(squash(renderMarkdown("```\nunclosed"))).toBe("<pre><code>unclosed</code></pre>");
  });
});
