/**
 * Splits a text fed in pieces into lines, keeping each line's exact text: only the "\n" is taken
 * off (a "\r" before it and a leading byte-order mark stay), so the lines joined with "\n" give the
 * text back.
 */

export interface RawLine {
  /** 1-based line number */
  n: number;
  /** the line without its "\n" */
  text: string;
  /** a "\n" ended it (false only for the last line of a text that does not end with "\n") */
  terminated: boolean;
}

export class LineSplitter {
  #carry = "";
  #n = 0;
  #ended = false;

  /** The lines completed by this piece (a line without "\n" waits for the next piece or end()). */
  push(text: string): RawLine[] {
    if (this.#ended) throw new Error("LineSplitter: push after end");
    const out: RawLine[] = [];
    let pos = 0;
    for (;;) {
      const nl = text.indexOf("\n", pos);
      if (nl === -1) break;
      const piece = text.slice(pos, nl);
      out.push({ n: ++this.#n, text: this.#carry === "" ? piece : this.#carry + piece, terminated: true });
      this.#carry = "";
      pos = nl + 1;
    }
    if (pos < text.length) this.#carry += text.slice(pos);
    return out;
  }

  /** The last line when the text does not end with "\n". */
  end(): RawLine[] {
    if (this.#ended) return [];
    this.#ended = true;
    if (this.#carry === "") return [];
    const line: RawLine = { n: ++this.#n, text: this.#carry, terminated: false };
    this.#carry = "";
    return [line];
  }

  /** Lines completed so far. */
  get count(): number {
    return this.#n;
  }
}

/** The JSON value of a line (a byte-order mark and surrounding white space are ignored), or an error. */
export function parseLine(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** True for a line of only white space (kept verbatim, but no entry of its own). */
export function isBlankLine(text: string): boolean {
  return text.replace(/^\ufeff/, "").trim().length === 0;
}
