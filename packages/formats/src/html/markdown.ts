/**
 * A small, safe Markdown renderer for transcripts: the text is escaped first, then fenced and
 * indented code, headings, block quotes, lists, tables, rules, paragraphs, and inline code, bold,
 * italic, strike-through and links are recognised. Links keep only http(s) and mailto targets;
 * images are shown as links (a page that loads nothing from the network). Code spans are held
 * aside as private-use placeholders (U+E000) while the other inlines are replaced.
 */
import { escapeHtml } from "./escape";

const SAFE_URL = /^(https?:|mailto:)/i;

/** Inline markup of one escaped line (code spans are taken out first so nothing inside them changes). */
function inline(escaped: string): string {
  const codes: string[] = [];
  let text = escaped.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) => {
    codes.push(`<code>${code.trim() === "" ? code : code.replace(/^ (.*) $/s, "$1")}</code>`);
    return `\ue000${codes.length - 1}\ue000`;
  });
  text = text.replace(/!\[([^\]]*)\]\(([^)\s]+)(?:\s+&quot;[^&]*&quot;)?\)/g, (whole, alt: string, url: string) =>
    SAFE_URL.test(url) ? `<a href="${url}" rel="noreferrer noopener" target="_blank">[image: ${alt}]</a>` : whole,
  );
  text = text.replace(/\[([^\]]+)\]\(([^)\s]+)(?:\s+&quot;[^&]*&quot;)?\)/g, (whole, label: string, url: string) =>
    SAFE_URL.test(url) ? `<a href="${url}" rel="noreferrer noopener" target="_blank">${label}</a>` : whole,
  );
  text = text.replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, "<strong>$1</strong>").replace(/__(?=\S)([\s\S]*?\S)__/g, "<strong>$1</strong>");
  text = text.replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?![\w*])/g, "$1<em>$2</em>").replace(/(^|[^\w])_(?=\S)([^_]*?\S)_(?!\w)/g, "$1<em>$2</em>");
  text = text.replace(/~~(?=\S)([\s\S]*?\S)~~/g, "<del>$1</del>");
  return text.replace(/\ue000(\d+)\ue000/g, (_, i: string) => codes[Number(i)] as string);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const ORDERED = /^(\s*)(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}&gt;\s?(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

function cells(row: string): string[] {
  return row.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => inline(c.trim()));
}

function isBlockStart(line: string, next: string | undefined): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || BULLET.test(line) || ORDERED.test(line) || QUOTE.test(line) || (line.includes("|") && next !== undefined && TABLE_RULE.test(next));
}

/** A list starting at lines[i]: items (with their continuation lines) rendered recursively. */
function list(lines: string[], i: number): { html: string; next: number } {
  const first = lines[i] as string;
  const ordered = !BULLET.test(first);
  const indent = (ordered ? ORDERED.exec(first)?.[1] : BULLET.exec(first)?.[1])?.length ?? 0;
  const start = ordered ? Number(ORDERED.exec(first)?.[2] ?? "1") : 1;
  const items: string[] = [];
  let current: string[] | null = null;
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    const m = ordered ? ORDERED.exec(line) : BULLET.exec(line);
    const ownIndent = m?.[1]?.length ?? -1;
    if (m && ownIndent === indent) {
      if (current) items.push(blocks(current));
      current = [ordered ? (m[3] as string) : (m[2] as string)];
    } else if (line.trim() === "") {
      const next = lines[i + 1];
      if (next === undefined || (next.length - next.trimStart().length <= indent && !(ordered ? ORDERED : BULLET).test(next))) break;
      current?.push("");
    } else if (line.length - line.trimStart().length > indent && current) current.push(line.slice(Math.min(line.length - line.trimStart().length, indent + 2)));
    else if (current && !isBlockStart(line, lines[i + 1]) && (current[current.length - 1] ?? "") !== "") current.push(line);
    else break;
  }
  if (current) items.push(blocks(current));
  const tag = ordered ? "ol" : "ul";
  const startAttr = ordered && start !== 1 ? ` start="${start}"` : "";
  return { html: `<${tag}${startAttr}>${items.map((it) => `<li>${it}</li>`).join("")}</${tag}>`, next: i };
}

/** Block structure of escaped lines. */
function blocks(lines: string[]): string {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] as string;
      const body: string[] = [];
      for (i++; i < lines.length && !(lines[i] as string).trimStart().startsWith(marker); i++) body.push(lines[i] as string);
      i++;
      const lang = fence[2] ? ` data-lang="${fence[2]}"` : "";
      out.push(`<pre class="code"${lang}><code>${body.join("\n")}</code></pre>`);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = (heading[1] as string).length;
      out.push(`<h${level}>${inline(heading[2] as string)}</h${level}>`);
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push("<hr>");
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      for (; i < lines.length && QUOTE.test(lines[i] as string); i++) body.push(QUOTE.exec(lines[i] as string)?.[1] ?? "");
      out.push(`<blockquote>${blocks(body)}</blockquote>`);
      continue;
    }
    if (BULLET.test(line) || ORDERED.test(line)) {
      const l = list(lines, i);
      out.push(l.html);
      i = l.next;
      continue;
    }
    if (line.includes("|") && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1] as string)) {
      const head = cells(line);
      const rows: string[][] = [];
      for (i += 2; i < lines.length && (lines[i] as string).includes("|") && (lines[i] as string).trim() !== ""; i++) rows.push(cells(lines[i] as string));
      out.push(`<table><thead><tr>${head.map((c) => `<th>${c}</th>`).join("")}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")}</tbody></table>`);
      continue;
    }
    if (/^( {4}|\t)/.test(line)) {
      const body: string[] = [];
      for (; i < lines.length && (/^( {4}|\t)/.test(lines[i] as string) || (lines[i] as string).trim() === ""); i++) body.push((lines[i] as string).replace(/^( {4}|\t)/, ""));
      while (body.length > 0 && (body[body.length - 1] as string).trim() === "") body.pop();
      out.push(`<pre class="code"><code>${body.join("\n")}</code></pre>`);
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length && (lines[i] as string).trim() !== "" && (para.length === 0 || !isBlockStart(lines[i] as string, lines[i + 1])); i++) para.push(lines[i] as string);
    out.push(`<p>${para.map(inline).join("<br>")}</p>`);
  }
  return out.join("");
}

/** Markdown text -> safe HTML (no raw HTML passes through: it is shown as text). */
export function renderMarkdown(text: string): string {
  return blocks(escapeHtml(text.replace(/\r\n?/g, "\n").replace(/\ue000/g, "\ufffd")).split("\n"));
}
