/** UTF-8 size of a string, without TextEncoder (this package has no DOM or Node typings). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** At most `limit` bytes of UTF-8: exact only where it matters (a UTF-16 unit is at most 3 bytes). */
export function fitsUtf8(text: string, limit: number): boolean {
  return text.length * 3 <= limit || utf8Length(text) <= limit;
}
