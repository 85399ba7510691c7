/** The HTML export's Markdown renderer: the usual blocks and inlines, and nothing unsafe gets through. */
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../src/index";

describe("renderMarkdown", () => {
  it("renders headings, lists, code, quotes, tables and inline marks", () => {
    expect(renderMarkdown("# Title\n\nSome **bold**, *italic*, `code` and ~~old~~.")).toBe("<h1>Title</h1><p>Some <strong>bold</strong>, <em>italic</em>, <code>code</code> and <del>old</del>.</p>");
    expect(renderMarkdown("- a\n- b\n  - c\n\n1. one\n2. two")).toBe("<ul><li><p>a</p></li><li><p>b</p><ul><li><p>c</p></li></ul></li></ul><ol><li><p>one</p></li><li><p>two</p></li></ol>");
    expect(renderMarkdown("```ts\nconst a = 1 < 2;\n```")).toBe('<pre class="code" data-lang="ts"><code>const a = 1 &lt; 2;</code></pre>');
    expect(renderMarkdown("> quoted\n> more")).toBe("<blockquote><p>quoted<br>more</p></blockquote>");
    expect(renderMarkdown("| a | b |\n|---|---|\n| 1 | 2 |")).toBe("<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>");
    expect(renderMarkdown("a\n\n---\n\nb")).toBe("<p>a</p><hr><p>b</p>");
  });

  it("escapes HTML and keeps only http(s) and mailto links; images become links", () => {
    expect(renderMarkdown('<script>alert("x")</script> <img src=x onerror=alert(1)>')).toBe("<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;</p>");
    expect(renderMarkdown("[ok](https://example.com/a?b=1&c=2) [bad](javascript:alert(1))")).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2" rel="noreferrer noopener" target="_blank">ok</a> [bad](javascript:alert(1))</p>',
    );
    expect(renderMarkdown("![logo](https://example.com/logo.png)")).toBe('<p><a href="https://example.com/logo.png" rel="noreferrer noopener" target="_blank">[image: logo]</a></p>');
    expect(renderMarkdown('[x](https://e.com/"onmouseover="alert(1))')).not.toMatch(/"onmouseover/);
  });

  it("leaves code spans alone and survives odd input", () => {
    expect(renderMarkdown("`**not bold**` and `<b>`")).toBe("<p><code>**not bold**</code> and <code>&lt;b&gt;</code></p>");
    expect(renderMarkdown("a\ue0001\ue000b `c`")).toBe("<p>a\ufffd1\ufffdb <code>c</code></p>");
    expect(renderMarkdown("")).toBe("");
    expect(renderMarkdown("```\nunclosed")).toBe('<pre class="code"><code>unclosed</code></pre>');
  });
});
