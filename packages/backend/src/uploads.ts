/**
 * Files imported by content (browser file input / drag-and-drop) are saved under
 * <dataDir>/uploads/<content hash>-<name> and imported from there: the store reads files, the
 * same upload twice is one session (same path, unchanged), and write-through edits that copy,
 * never the user's original.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

export function safeFileName(name: string): string {
  const base = path.basename(name.replace(/\\/g, "/"));
  const cleaned = base.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "").slice(0, 120);
  return cleaned === "" ? "session.jsonl" : cleaned;
}

export function saveUpload(dataDir: string, name: string, content: string): string {
  const dir = path.join(dataDir, "uploads");
  fs.mkdirSync(dir, { recursive: true });
  const hash = createHash("sha256").update(content).digest("hex").slice(0, 16);
  const file = path.join(dir, `${hash}-${safeFileName(name)}`);
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, content);
    fs.renameSync(tmp, file);
  }
  return file;
}
