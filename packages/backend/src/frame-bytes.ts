/**
 * The bytes of a WebSocket frame (server side): UTF-8, in ASCII when few characters are not.
 */
/** escaped only while at most one character in this many is outside ASCII (text in other scripts stays UTF-8) */
const ESCAPE_WITHIN = 100;
const HEX = "0123456789abcdef";

/** writes `\uXXXX` for the UTF-16 unit `unit` at `at`; returns the next position */
function writeEscape(out: Buffer, at: number, unit: number): number {
  out[at] = 0x5c; // \
  out[at + 1] = 0x75; // u
  for (let k = 0; k < 4; k++) out[at + 2 + k] = HEX.charCodeAt((unit >> (12 - 4 * k)) & 15);
  return at + 6;
}

/**
 * A frame's bytes for the wire (UTF-8), in ASCII when few of its characters are not: those become
 * \u escapes, the same value once parsed. A browser keeps an ASCII WebSocket message as one-byte
 * text; one character outside ASCII makes it decode the whole message from UTF-8 into two-byte
 * text. A 100,000-entry session's skeleton (5.4 MB with 1,103 such characters in its previews) took
 * a page about 320 ms to take in and parse that way, 190 ms in ASCII (docs/PERFORMANCE.md). Text
 * mostly in another script stays UTF-8: escaped, it would take twice the bytes. Escaping works on
 * the bytes (escaping the string made it a rope of thousands of pieces, slow to encode); JSON text
 * holds characters outside ASCII inside strings only, and no lone surrogate (JSON.stringify escapes
 * those), so each UTF-8 sequence is a whole character.
 */
export function frameBytes(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  // as many bytes as UTF-16 units: every character is ASCII
  if (bytes.length === text.length) return bytes;
  let sequences = 0;
  let units = 0; // UTF-16 units the sequences hold (a 4-byte one: a surrogate pair)
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b >= 0xc0) {
      sequences++;
      units += b >= 0xf0 ? 2 : 1;
    }
  }
  if (sequences * ESCAPE_WITHIN > text.length) return bytes;
  // the ASCII characters as they are, six bytes for every UTF-16 unit of the others
  const out = Buffer.allocUnsafe(text.length + 5 * units);
  let at = 0;
  let from = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80) continue;
    at += bytes.copy(out, at, from, i);
    let cp: number;
    let length: number;
    if (b >= 0xf0) [cp, length] = [((b & 0x07) << 18) | ((bytes[i + 1]! & 0x3f) << 12) | ((bytes[i + 2]! & 0x3f) << 6) | (bytes[i + 3]! & 0x3f), 4];
    else if (b >= 0xe0) [cp, length] = [((b & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f), 3];
    else [cp, length] = [((b & 0x1f) << 6) | (bytes[i + 1]! & 0x3f), 2];
    if (cp > 0xffff) {
      at = writeEscape(out, at, 0xd800 + ((cp - 0x10000) >> 10));
      at = writeEscape(out, at, 0xdc00 + ((cp - 0x10000) & 0x3ff));
    } else at = writeEscape(out, at, cp);
    i += length - 1;
    from = i + 1;
  }
  at += bytes.copy(out, at, from, bytes.length);
  return at === out.length ? out : out.subarray(0, at);
}
