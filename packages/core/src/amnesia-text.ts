/**
 * What the amnesia report (amnesia.ts) reads in text: identifiers (paths, URLs, code symbols,
 * error codes), the sentences of a user's words and their similarity, and the signature of a tool
 * error.
 */

export const RESTATE_SIMILARITY = 0.6;
export const RESTATE_MIN_WORDS = 4;

export type IdentifierKind = "path" | "url" | "symbol" | "errorCode";

export interface Identifier {
  value: string;
  kind: IdentifierKind;
}

/** Runs of characters identifiers are made of (URLs included); everything else separates them. */
export const TOKEN_RE = /[A-Za-z0-9_.~@+/:%?=&#-]+/g;
export const FILE_EXTENSION = /\.(?:tsx?|jsx?|mjs|cjs|json|md|py|rs|go|java|kt|rb|php|c|h|cpp|hpp|cs|swift|sh|ya?ml|toml|sql|css|scss|html|vue|svelte|lock|txt)$/;
export const SYMBOL = /^(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$/;
export const ERROR_CODE = /^(?:[A-Z]{1,4}\d{3,5}|E[A-Z]{3,}|ERR_[A-Z0-9_]+)$/;
export const TRAILING = /[.,:;!?'"`)\]}#=&%-]+$/;
export const PLAIN_WORD = /^[A-Za-z][a-z]*[.,:;!?-]?$/;
export const LEADING = /^[:;,.'"`([{#=&%?-]+(?=[^.~/])/;

export function isPath(token: string): boolean {
  if (!token.includes("/")) return FILE_EXTENSION.test(token) && /^[\w-]+\.\w+$/.test(token);
  if (!/^(?:~|\.{1,2})?[\w@+./-]+$/.test(token)) return false;
  const segments = token.split("/").filter((p) => p !== "" && p !== "." && p !== "..");
  const last = segments[segments.length - 1] ?? "";
  return segments.length >= 3 || (segments.length >= 2 && (/\.[A-Za-z0-9]{1,6}$/.test(last) || token.startsWith("/")));
}

/**
 * The identifiers of a text: URLs, paths (three or more segments, or two with a file name or from
 * the root), file names with a known extension, code symbols (camelCase, PascalCase with two humps,
 * snake_case, SCREAMING_CASE, also inside paths) and error codes (TS2345, E0308, ENOENT, ERR_…),
 * each at least 5 characters. One pass over the text, then each run of identifier characters is
 * classified.
 */
export function extractIdentifiers(text: string): Identifier[] {
  const found = new Map<string, IdentifierKind>();
  const add = (value: string, kind: IdentifierKind) => {
    if (value.length >= 5 && !found.has(value)) found.set(value, kind);
  };
  for (const match of text.matchAll(TOKEN_RE)) {
    // most runs are plain words: nothing to classify
    if (match[0].length < 5 || PLAIN_WORD.test(match[0])) continue;
    const raw = match[0].replace(TRAILING, "").replace(LEADING, "");
    if (raw.length < 5) continue;
    if (/^https?:\/\//.test(raw)) {
      add(raw, "url");
      continue;
    }
    // a location such as src/app.ts:12:5 names the file
    const token = raw.replace(/(?::\d+)+$/, "");
    if (isPath(token)) add(token, "path");
    for (const word of token.split(/[^A-Za-z0-9_]+/)) {
      if (word.length < 5) continue;
      if (ERROR_CODE.test(word)) add(word, "errorCode");
      else if (SYMBOL.test(word)) add(word, "symbol");
    }
  }
  return [...found].map(([value, kind]) => ({ value, kind }));
}

/** Whether a summary mentions an identifier (a path also by its file name). */
export function summaryMentions(summary: string, identifier: Identifier): boolean {
  if (summary.includes(identifier.value)) return true;
  if (identifier.kind !== "path") return false;
  const name = identifier.value.split("/").pop() ?? "";
  return name.length >= 5 && summary.includes(name);
}


export function sentenceWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function bigrams(words: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 1 < words.length; i++) out.add(`${words[i]} ${words[i + 1]}`);
  return out;
}

export function dice(x: ReadonlySet<string>, y: ReadonlySet<string>): number {
  if (x.size === 0 || y.size === 0) return 0;
  const [small, large] = x.size <= y.size ? [x, y] : [y, x];
  let common = 0;
  for (const g of small) if (large.has(g)) common++;
  return (2 * common) / (x.size + y.size);
}

/** Dice coefficient of the two sentences' word-bigram sets (0..1). */
export function instructionSimilarity(a: string, b: string): number {
  return dice(bigrams(sentenceWords(a)), bigrams(sentenceWords(b)));
}

/** Sentences (ended by . ! ? ; before a space, or a line break) without their paths and URLs. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/[.!?;]+(?=\s|$)|\n+/)
    .map((s) => s.replace(/\S*\/\S*/g, " ").trim())
    .filter((s) => sentenceWords(s).length >= RESTATE_MIN_WORDS);
}

// ---------------------------------------------------------------- errors


// ---------------------------------------------------------------- findings

