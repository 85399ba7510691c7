/**
 * The start of a file for format detection: its first lines (at most SNIFF_LINES whole lines, at
 * most 8 MB), so that a file is never read whole only to learn what it is.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { SNIFF_LINES } from "@bonsai/formats";

const BLOCK = 64 * 1024;
const MAX_HEAD = 8 * 1024 * 1024;

export function readHead(file: string): string {
  const fd = openSync(file, "r");
  try {
    const blocks: Buffer[] = [];
    let total = 0;
    let newlines = 0;
    while (total < MAX_HEAD && newlines < SNIFF_LINES) {
      const block = Buffer.allocUnsafe(BLOCK);
      const n = readSync(fd, block, 0, BLOCK, null);
      if (n === 0) break;
      for (let i = block.indexOf(0x0a); i !== -1 && i < n; i = block.indexOf(0x0a, i + 1)) newlines++;
      blocks.push(block.subarray(0, n));
      total += n;
    }
    return Buffer.concat(blocks).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
