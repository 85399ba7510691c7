/**
 * Scripts written without spaces between words (Chinese, Japanese, Thai, ...) and Korean, whose
 * words carry attached particles: a search term in them is found anywhere in the text (a
 * substring), never only between word boundaries.
 */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/u;

/** true when the term holds a character of such a script: it is matched as a substring */
export function isSubstringTerm(text: string): boolean {
  return UNSPACED_SCRIPT.test(text);
}
