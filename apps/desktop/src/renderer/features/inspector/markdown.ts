/**
 * A small Markdown reader for message text: fenced code, headings, lists, quotes, paragraphs and
 * inline code / bold / italics / links. It produces a plain block tree that the component renders
 * as React elements (never as HTML strings), so message content cannot inject markup.
 */

export type Inline =
  | { t: "text"; v: string }
  | { t: "code"; v: string }
  | { t: "strong"; c: Inline[] }
  | { t: "em"; c: Inline[] }
  | { t: "link"; href: string; c: Inline[] };

export type Block =
  | { t: "code"; lang: string; v: string }
  | { t: "heading"; level: number; c: Inline[] }
  | { t: "list"; ordered: boolean; items: Inline[][] }
  | { t: "quote"; c: Inline[] }
  | { t: "rule" }
  | { t: "para"; c: Inline[] };

const FENCE = /^\s*(```+|~~~+)\s*([\w+-]*)/u;
const HEADING = /^(#{1,6})\s+(.*)$/u;
const BULLET = /^\s*[-*+]\s+(.*)$/u;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/u;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/u;

export function parseMarkdown(src: string): Block[] {
  const lines = src.replace(/\r\n?/gu, "\n").split("\n");
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length > 0) blocks.push({ t: "para", c: parseInline(para.join("\n")) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1] as string;
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] as string).trimStart().startsWith(marker)) body.push(lines[i++] as string);
      blocks.push({ t: "code", lang: fence[2] ?? "", v: body.join("\n") });
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ t: "heading", level: (heading[1] as string).length, c: parseInline(heading[2] as string) });
      continue;
    }
    if (RULE.test(line)) {
      flush();
      blocks.push({ t: "rule" });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      flush();
      const ordered = numbered !== null;
      const re = ordered ? NUMBERED : BULLET;
      const items: Inline[][] = [];
      let m: RegExpExecArray | null = bullet ?? numbered;
      while (m) {
        items.push(parseInline(m[1] as string));
        const next = lines[i + 1];
        m = next === undefined ? null : re.exec(next);
        if (m) i++;
      }
      blocks.push({ t: "list", ordered, items });
      continue;
    }
    if (line.startsWith(">")) {
      flush();
      const quoted: string[] = [line.replace(/^>\s?/u, "")];
      while ((lines[i + 1] ?? "").startsWith(">")) quoted.push((lines[++i] as string).replace(/^>\s?/u, ""));
      blocks.push({ t: "quote", c: parseInline(quoted.join("\n")) });
      continue;
    }
    para.push(line);
  }
  flush();
  return blocks;
}

const INLINE = /(`+)([\s\S]*?)\1|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|\*([^*\s][^*]*?)\*|\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/gu;

export function parseInline(src: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const m of src.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ t: "text", v: src.slice(last, at) });
    if (m[1] !== undefined) out.push({ t: "code", v: m[2] ?? "" });
    else if (m[3] !== undefined || m[4] !== undefined) out.push({ t: "strong", c: parseInline(m[3] ?? m[4] ?? "") });
    else if (m[5] !== undefined) out.push({ t: "em", c: parseInline(m[5]) });
    else out.push({ t: "link", href: m[7] ?? "", c: parseInline(m[6] ?? "") });
    last = at + m[0].length;
  }
  if (last < src.length) out.push({ t: "text", v: src.slice(last) });
  return out;
}
