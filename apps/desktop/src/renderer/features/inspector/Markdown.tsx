import { memo, useMemo } from "react";
import type { ReactNode } from "react";
import { parseMarkdown } from "./markdown";
import type { Inline } from "./markdown";

function inlines(list: Inline[], keyPrefix = ""): ReactNode[] {
  return list.map((node, i) => {
    const key = `${keyPrefix}${i}`;
    switch (node.t) {
      case "text":
        return <span key={key}>{node.v}</span>;
      case "code":
        return <code key={key}>{node.v}</code>;
      case "strong":
        return <strong key={key}>{inlines(node.c, `${key}.`)}</strong>;
      case "em":
        return <em key={key}>{inlines(node.c, `${key}.`)}</em>;
      case "link":
        return (
          <a key={key} href={node.href} target="_blank" rel="noreferrer noopener">
            {inlines(node.c, `${key}.`)}
          </a>
        );
    }
  });
}

/** Message text as Markdown (rendered as elements, never as HTML). */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return (
    <div className="bz-md">
      {blocks.map((b, i) => {
        switch (b.t) {
          case "code":
            return (
              <pre key={i} className="bz-code" data-lang={b.lang || undefined}>
                <code>{b.v}</code>
              </pre>
            );
          case "heading": {
            const Tag = `h${Math.min(6, b.level + 2)}` as "h3";
            return <Tag key={i}>{inlines(b.c)}</Tag>;
          }
          case "list": {
            const items = b.items.map((it, k) => <li key={k}>{inlines(it)}</li>);
            return b.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
          }
          case "quote":
            return <blockquote key={i}>{inlines(b.c)}</blockquote>;
          case "rule":
            return <hr key={i} />;
          case "para":
            return <p key={i}>{inlines(b.c)}</p>;
        }
      })}
    </div>
  );
});
