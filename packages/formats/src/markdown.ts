/**
 * The one Markdown dialect of Bonsai: CommonMark plus GFM tables and strike-through, parsed by
 * markdown-it for both the HTML export and the app's inspector.
 *
 * Safe with any text: raw HTML is off (it is shown as text), nesting is capped (deeper block quotes
 * and lists become text instead of overflowing a stack), bare URLs are not turned into links, and a
 * link keeps only an http(s) or mailto target (javascript:, vbscript:, data: and every other scheme
 * stay text). markdown-it is linear on adversarial input (runs of `>`, backticks, `[a](`): see
 * docs/PERFORMANCE.md for the measured figure.
 */
import MarkdownIt, { type Token } from "markdown-it";

/** Link targets a page may follow. */
const SAFE_LINK = /^(https?:|mailto:)/i;

/** How deep block quotes, lists and emphasis may nest before the rest is shown as text. */
export const MARKDOWN_MAX_NESTING = 20;

function createParser(): MarkdownIt {
  const md = new MarkdownIt("commonmark", { html: false, linkify: false, typographer: false, breaks: false });
  md.enable(["table", "strikethrough"]);
  // an option markdown-it reads but its type definitions leave out
  Object.assign(md.options, { maxNesting: MARKDOWN_MAX_NESTING });
  // markdown-it drops the rest of a block nested past the limit: note it, so the text is shown whole
  const tokenize = md.block.tokenize.bind(md.block);
  md.block.tokenize = (state, startLine, endLine): void => {
    if (state.level >= MARKDOWN_MAX_NESTING) (state.env as ParseEnv).nestingLimit = true;
    tokenize(state, startLine, endLine);
  };
  md.validateLink = (url: string): boolean => SAFE_LINK.test(url.trim());
  // images load nothing: the export's CSP allows only data: images, and the app shows none
  md.renderer.rules.image = (tokens, i): string => {
    const token = tokens[i] as Token;
    const src = token.attrGet("src") ?? "";
    const alt = md.utils.escapeHtml(token.content);
    return `<a href="${md.utils.escapeHtml(src)}" rel="noreferrer noopener" target="_blank">[image: ${alt}]</a>`;
  };
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
  md.renderer.rules.link_open = (tokens, i, options, env, self): string => {
    const token = tokens[i] as Token;
    token.attrSet("rel", "noreferrer noopener");
    token.attrSet("target", "_blank");
    return defaultLinkOpen(tokens, i, options, env, self);
  };
  return md;
}

interface ParseEnv {
  nestingLimit?: boolean;
}

const parser = createParser();

/** The whole text as one code block (text nested past the limit is shown as it is). */
function asCodeBlock(text: string): Token[] {
  const token = new (new parser.core.State("", parser, {}).Token)("code_block", "code", 0);
  token.content = text.endsWith("\n") ? text : `${text}\n`;
  token.block = true;
  return [token];
}

/**
 * The block and inline tokens of a Markdown text (what the app renders as React elements). A text
 * nested deeper than MARKDOWN_MAX_NESTING comes back as one code block holding all of it.
 */
export function markdownTokens(text: string): Token[] {
  const env: ParseEnv = {};
  const tokens = parser.parse(text, env);
  return env.nestingLimit === true ? asCodeBlock(text) : tokens;
}

/** Markdown text -> safe HTML (no raw HTML passes through: it is shown as text). */
export function renderMarkdown(text: string): string {
  return parser.renderer.render(markdownTokens(text), parser.options, {});
}

export type { Token as MarkdownToken };
