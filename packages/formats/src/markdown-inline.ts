/**
 * Session values quoted in the Markdown export's own lines (its title, header facts, headings and
 * notes: a model, "tokens before", a tool's name, a folder): whatever they hold, they stay one line
 * of literal text, never a heading, link, emphasis, HTML or the end of a code span.
 */

/** line breaks of any kind (CommonMark's and Unicode's) become one space: a value never starts a new block */
function oneLine(value: unknown): string {
  return String(value).replace(/\r\n|[\r\n\u2028\u2029]/gu, " ");
}

/** Markdown's inline syntax characters (CommonMark lets any ASCII punctuation be escaped with a backslash) */
const INLINE_SYNTAX = /[\\`*_[\]<>#!|~&()]/gu;

/** A value as literal inline text: one line, each character of inline syntax escaped. */
export function mdText(value: unknown): string {
  return oneLine(value).replace(INLINE_SYNTAX, (c) => `\\${c}`);
}

/** A value as one code span: fenced by a run of backticks longer than any run inside it. */
export function mdCode(value: unknown): string {
  const text = oneLine(value);
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/gu), (m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  // a space on each side when the text starts or ends with a backtick (CommonMark strips one each side)
  const pad = text.startsWith("`") || text.endsWith("`") || (text.startsWith(" ") && text.endsWith(" ") && text.trim() !== "") ? " " : "";
  return `${ticks}${pad}${text}${pad}${ticks}`;
}
