/**
 * Search snippets in the contract's form: matched words wrapped in [[ and ]]. The store marks them
 * with single brackets, which text cannot be told apart from ("see [Parser]"), so each bracketed
 * part is kept as a match only when the store's own matcher finds exactly that part as one match
 * for the query. Self-disabling: if the store marks [[word]] itself, snippets pass unchanged.
 */
import { makeSnippet, parseQuery, snippetMaker } from "@bonsai/store";

const PROBE = "bonsai";
const STORE_MARKS_SINGLE = makeSnippet(PROBE, parseQuery(PROBE)) === `[${PROBE}]`;

/** A converter for the store's snippets of one query (the query's matcher is compiled once). */
export function contractSnippets(query: string): (snippet: string) => string {
  if (!STORE_MARKS_SINGLE) return (snippet) => snippet;
  const matchOf = snippetMaker(parseQuery(query));
  // a match starts and ends with a word character, so the brackets right around it are the store's
  return (snippet) => snippet.replace(/\[([^[\]]+)\]/gu, (whole, inner: string) => (matchOf(inner) === whole ? `[[${inner}]]` : whole));
}
