/**
 * PathReader.releaseMappedPages: the reads that touch pages spread over the file (a branch plan's
 * runs, summaries and rows; a context's settings entries) release the pages mapped before them. The
 * connection keeps its mmap_size, and what it reads next is read as before; a connection that maps
 * nothing is left alone. Real SQLite files.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openCurrentReader } from "../src/reader";
import { PathReader, Statements } from "../src/reads/path";
import { newStore, tempDir, userEntry } from "./support";

describe("releaseMappedPages", () => {
  it("keeps the connection's mmap_size and its reads", async () => {
    const dir = tempDir();
    const store = newStore(dir);
    const file = path.join(dir, "s.jsonl");
    const lines = [{ type: "session", version: 3, id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" }, userEntry("a", null, "one"), userEntry("b", "a", "two")];
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const id = (await store.importFile(file)).sessionId as string;
    store.close();
    const reader = openCurrentReader({ path: path.join(dir, "bonsai.db") });
    if (!reader) throw new Error("the database should need nothing but reading");
    try {
      const paths = new PathReader(new Statements(reader.db));
      const mapped = reader.db.pragma("mmap_size", { simple: true }) as number;
      expect(mapped).toBeGreaterThan(0);
      const before = paths.entriesAt(id, [0, 1]);
      paths.releaseMappedPages();
      expect(reader.db.pragma("mmap_size", { simple: true })).toBe(mapped);
      expect(paths.entriesAt(id, [0, 1])).toEqual(before);
      expect((before[1] as { id: string }).id).toBe("b");
      reader.db.pragma("mmap_size = 0");
      paths.releaseMappedPages();
      expect(reader.db.pragma("mmap_size", { simple: true })).toBe(0);
      expect(paths.entriesAt(id, [1])).toEqual([before[1]]);
    } finally {
      reader.close();
    }
  });
});
