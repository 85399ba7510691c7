/**
 * Splits a search snippet into plain and matched parts. The contract marks matches as [[word]]
 * (the text's own brackets stay text: "[[[word]]]" is a match inside brackets). Snippets with
 * single-bracketed marks (older backends) are still read: with the query given, a [part] counts
 * as a match only when it is one of the query's words.
 */
export interface SnippetPart {
  text: string;
  match: boolean;
}

export function queryWords(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((w) => w !== "" && w !== "and" && w !== "or" && w !== "not");
}

export function snippetParts(snippet: string, query = ""): SnippetPart[] {
  if (snippet.includes("[[")) return split(snippet, "[[", "]]", () => true);
  const words = queryWords(query);
  if (words.length === 0) return snippet === "" ? [] : [{ text: snippet, match: false }];
  return split(snippet, "[", "]", (inner) => {
    const w = inner.toLowerCase();
    return words.some((q) => w.startsWith(q));
  });
}

function split(snippet: string, open: string, close: string, isMatch: (inner: string) => boolean): SnippetPart[] {
  const out: SnippetPart[] = [];
  const push = (text: string, match: boolean) => {
    if (text === "") return;
    const last = out[out.length - 1];
    if (last && !last.match && !match) last.text += text;
    else out.push({ text, match });
  };
  let rest = snippet;
  while (rest.length > 0) {
    let at = rest.indexOf(open);
    // "[[[word]]]" is a marked word in the text's own brackets: the marker is the innermost pair
    while (at >= 0 && rest.startsWith(open, at + 1)) at++;
    const end = at < 0 ? -1 : rest.indexOf(close, at + open.length);
    if (at < 0 || end < 0) {
      push(rest, false);
      break;
    }
    const inner = rest.slice(at + open.length, end);
    push(rest.slice(0, at), false);
    if (isMatch(inner)) push(inner, true);
    else push(rest.slice(at, end + close.length), false);
    rest = rest.slice(end + close.length);
  }
  return out;
}
