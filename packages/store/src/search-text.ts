/**
 * User search input -> FTS5 expressions, and the snippet shown for a hit. The FTS tables are
 * contentless (the text lives once, in entry_json), so snippets are cut here from the entry's
 * derived text, with the same notion of a match: whole words, or word prefixes with a trailing *;
 * a term in a script written without spaces between words (Chinese, Japanese, Thai, ...) matches
 * anywhere in the text, as a substring.
 */
import { isSubstringTerm } from "@bonsai/formats";

export interface QueryTerm {
  text: string;
  prefix: boolean;
}

/** a space between two Chinese or Japanese characters: those scripts write adjacent words with none */
const SPACE_BETWEEN_HAN_KANA = /(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])\s+(?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu;

/**
 * Words (optionally with a trailing *) and "quoted phrases". A NUL character separates words (no
 * stored text holds one, and SQLite and PostgreSQL take none in a query). In a phrase, Chinese or
 * Japanese words typed with a space between them are looked for adjacent, as those scripts write them.
 */
export function parseQuery(query: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  const text = query.replace(/\0/g, " ");
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const phrase = m[1];
    if (phrase !== undefined) {
      if (phrase.trim() !== "") terms.push({ text: phrase.trim().replace(SPACE_BETWEEN_HAN_KANA, ""), prefix: false });
      continue;
    }
    const word = m[2] ?? "";
    const prefix = word.endsWith("*");
    const text = word.replace(/\*+$/, "");
    if (text !== "") terms.push({ text, prefix });
  }
  return terms;
}

/**
 * A user query as an FTS5 expression: every term quoted (punctuation and operators in it are
 * literal), all terms required, a trailing * keeps prefix search; null when there is nothing to find.
 */
export function toFtsQuery(query: string): string | null {
  return toMatchExpression(parseQuery(query));
}

export { isSubstringTerm };

/** A trigram index matches substrings of at least this many characters (code points). */
export const TRIGRAM_MIN_CHARS = 3;

/** The query's terms by the index that answers them. */
export interface RoutedTerms {
  /** whole words and word prefixes: the word index */
  words: QueryTerm[];
  /** substrings of TRIGRAM_MIN_CHARS characters or more: the trigram index */
  trigrams: QueryTerm[];
  /** shorter substrings: a bounded scan (search-query.ts) */
  short: QueryTerm[];
}

export function routeTerms(terms: readonly QueryTerm[]): RoutedTerms {
  const routed: RoutedTerms = { words: [], trigrams: [], short: [] };
  for (const t of terms) {
    if (!isSubstringTerm(t.text)) routed.words.push(t);
    else if ([...t.text].length >= TRIGRAM_MIN_CHARS) routed.trigrams.push({ text: t.text, prefix: false });
    else routed.short.push({ text: t.text, prefix: false });
  }
  return routed;
}

/**
 * Terms as an FTS5 expression (see toFtsQuery); for the trigram index, the routed substrings
 * (quoted, so each is one run of characters, not a prefix).
 */
export function toMatchExpression(terms: readonly QueryTerm[]): string | null {
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.text.replace(/"/g, '""')}"${t.prefix ? "*" : ""}`).join(" AND ");
}

const WORD = "[\\p{L}\\p{N}_]";

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function termPattern(t: QueryTerm): string {
  if (isSubstringTerm(t.text)) return escapeRegExp(t.text);
  // FTS tokenizes on non-alphanumerics: match the term's words separated by any non-word run
  const words = t.text.split(new RegExp(`(?:(?!${WORD}).)+`, "u")).filter((w) => w !== "");
  if (words.length === 0) return "";
  const body = words.map(escapeRegExp).join(`(?:(?!${WORD}).)+`);
  return `(?<!${WORD})${body}${t.prefix ? `${WORD}*` : `(?!${WORD})`}`;
}

const BEFORE = 60;
const AFTER = 160;

/** only this much of an entry's text is scanned for the snippet (the hit may come from further on) */
const SCAN_CHARS = 16 * 1024;

/**
 * A snippet maker for one query: the text around the first match, matches wrapped in [ ], "…"
 * where cut; "" when nothing matches (the regular expression is compiled once per query).
 */
export function snippetMaker(terms: readonly QueryTerm[]): (text: string) => string {
  const patterns = terms.map(termPattern).filter((p) => p !== "");
  if (patterns.length === 0) return () => "";
  const source = patterns.join("|");
  const find = new RegExp(source, "iu");
  const mark = new RegExp(source, "giu");
  // a cheap test before the regular expression: some term's first word must occur at all
  const needles = terms.map((t) => (t.text.split(/\s+/)[0] ?? "").toLowerCase()).filter((w) => w !== "");
  return (text) => {
    const scanned = text.length > SCAN_CHARS ? text.slice(0, SCAN_CHARS) : text;
    const lower = scanned.toLowerCase();
    if (!needles.some((n) => lower.includes(n))) return "";
    const first = find.exec(scanned);
    if (!first) return "";
    const start = Math.max(0, first.index - BEFORE);
    const end = Math.min(text.length, first.index + AFTER);
    const marked = text.slice(start, end).replace(mark, (m) => `[${m}]`);
    return `${start > 0 ? "…" : ""}${marked.replace(/\s+/g, " ").trim()}${end < text.length ? "…" : ""}`;
  };
}

/** One snippet (see snippetMaker). */
export function makeSnippet(text: string, terms: readonly QueryTerm[]): string {
  return snippetMaker(terms)(text);
}
