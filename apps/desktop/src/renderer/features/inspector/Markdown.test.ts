import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./Markdown";

const html = (text: string): string => renderToStaticMarkup(createElement(Markdown, { text }));

describe("Markdown (the inspector's, from the one markdown-it dialect)", () => {
  it("renders blocks and inlines as elements, headings two levels down, tight lists without paragraphs", () => {
    expect(html("# Goal\n\nFix the **build** *now* ~~later~~ `x`")).toBe('<div class="bz-md"><h3>Goal</h3><p>Fix the <strong>build</strong> <em>now</em> <s>later</s> <code>x</code></p></div>');
    expect(html("- one\n- two\n\n3. three")).toBe('<div class="bz-md"><ul><li>one</li><li>two</li></ul><ol start="3"><li>three</li></ol></div>');
    expect(html("```ts\nconst a = 1 < 2;\n```")).toBe('<div class="bz-md"><pre class="bz-code" data-lang="ts"><code>const a = 1 &lt; 2;\n</code></pre></div>');
    expect(html("| a |\n|---|\n| 1 |")).toBe('<div class="bz-md"><table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table></div>');
  });

  it("shows markup and unsafe links as text; link targets stay intact", () => {
    expect(html('<img src=x onerror=alert(1)> <script>alert("x")</script>')).toBe('<div class="bz-md"><p>&lt;img src=x onerror=alert(1)&gt; &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p></div>');
    expect(html("[bad](javascript:alert(1)) [d](data:text/html,x)")).toBe('<div class="bz-md"><p>[bad](javascript:alert(1)) [d](data:text/html,x)</p></div>');
    expect(html("[x](https://x/**y**)")).toBe('<div class="bz-md"><p><a href="https://x/**y**" target="_blank" rel="noreferrer noopener">x</a></p></div>');
  });

  it("shows text nested past the limit whole, as code", () => {
    expect(html(`${">".repeat(40)} kept`)).toBe(`<div class="bz-md"><pre class="bz-code"><code>${"&gt;".repeat(40)} kept\n</code></pre></div>`);
  });
});
