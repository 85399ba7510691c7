/** Splits a search snippet whose matches are wrapped in [[ and ]] into plain and matched parts. */
export function snippetParts(snippet: string): Array<{ text: string; match: boolean }> {
  const out: Array<{ text: string; match: boolean }> = [];
  let rest = snippet;
  while (rest.length > 0) {
    const open = rest.indexOf("[[");
    const close = open < 0 ? -1 : rest.indexOf("]]", open + 2);
    if (open < 0 || close < 0) {
      out.push({ text: rest, match: false });
      break;
    }
    if (open > 0) out.push({ text: rest.slice(0, open), match: false });
    out.push({ text: rest.slice(open + 2, close), match: true });
    rest = rest.slice(close + 2);
  }
  return out;
}
