/**
 * Message text as Markdown, parsed by the one dialect Bonsai has (@bonsai/formats/markdown,
 * markdown-it with raw HTML off) and rendered as React elements: never as HTML, so no text from a
 * session can become markup. Only the tags below are made; a link keeps its (already checked)
 * http(s) or mailto target and nothing else.
 */
import { Fragment, memo, useMemo } from "react";
import type { ReactNode } from "react";
import { markdownTokens, type MarkdownToken } from "@bonsai/formats/markdown";

/** The elements a Markdown token may become (headings sit two levels below the inspector's own). */
const TAGS: Record<string, string> = {
  p: "p", blockquote: "blockquote", ul: "ul", ol: "ol", li: "li", strong: "strong", em: "em", s: "s", a: "a", code: "code", pre: "pre", hr: "hr", br: "br",
  table: "table", thead: "thead", tbody: "tbody", tr: "tr", th: "th", td: "td",
  h1: "h3", h2: "h4", h3: "h5", h4: "h6", h5: "h6", h6: "h6",
};

interface Node {
  tag: string;
  token: MarkdownToken | null;
  children: ReactNode[];
}

function element(node: Node, key: number): ReactNode {
  const tag = TAGS[node.tag] ?? "span";
  const t = node.token;
  if (tag === "a") {
    return (
      <a key={key} href={t?.attrGet("href") ?? undefined} target="_blank" rel="noreferrer noopener">
        {node.children}
      </a>
    );
  }
  if (tag === "ol") {
    const start = Number(t?.attrGet("start") ?? "1");
    return (
      <ol key={key} start={Number.isFinite(start) ? start : undefined}>
        {node.children}
      </ol>
    );
  }
  const Tag = tag as "span";
  return <Tag key={key}>{node.children.length > 0 ? node.children : undefined}</Tag>;
}

function leaf(token: MarkdownToken, key: number): ReactNode {
  switch (token.type) {
    case "text":
      return token.content;
    case "code_inline":
      return <code key={key}>{token.content}</code>;
    case "softbreak":
      return "\n";
    case "hardbreak":
      return <br key={key} />;
    case "hr":
      return <hr key={key} />;
    case "fence":
    case "code_block":
      return (
        <pre key={key} className="bz-code" data-lang={token.info.trim().split(/\s+/)[0] || undefined}>
          <code>{token.content}</code>
        </pre>
      );
    case "image":
      // images load nothing: the alt text and the target are shown as a link
      return (
        <a key={key} href={token.attrGet("src") ?? undefined} target="_blank" rel="noreferrer noopener">
          [image: {token.content}]
        </a>
      );
    case "inline":
      return <Fragment key={key}>{build(token.children ?? [])}</Fragment>;
    default:
      return token.content === "" ? null : token.content;
  }
}

/** The token stream as nested elements (open/close pairs become one element holding what is between). */
function build(tokens: readonly MarkdownToken[]): ReactNode[] {
  const root: Node = { tag: "", token: null, children: [] };
  const stack: Node[] = [root];
  for (const token of tokens) {
    const top = stack[stack.length - 1] as Node;
    // the paragraphs of a tight list are hidden: their text belongs to the item
    if (token.hidden && token.nesting !== 0) continue;
    if (token.nesting === 1) {
      stack.push({ tag: token.tag, token, children: [] });
    } else if (token.nesting === -1) {
      const done = stack.length > 1 ? (stack.pop() as Node) : null;
      if (done) (stack[stack.length - 1] as Node).children.push(element(done, (stack[stack.length - 1] as Node).children.length));
    } else {
      top.children.push(leaf(token, top.children.length));
    }
  }
  return root.children;
}

/** Message text as Markdown (rendered as elements, never as HTML). */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const content = useMemo(() => build(markdownTokens(text)), [text]);
  return <div className="bz-md">{content}</div>;
});
