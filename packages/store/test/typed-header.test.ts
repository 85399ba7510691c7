import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HEADER, line, newStore, tempDir, userEntry } from "./support";

describe("a header field of another type", () => {
  it("a cwd that is not text is typed when read: Continue in pi makes its copy (no 'cwd.replace is not a function')", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, line({ ...HEADER, cwd: { path: 42 } }) + line(userEntry("a", null, "hello")));
    const store = newStore(dir);
    const sessionId = (await store.importFile(file)).sessionId!;
    expect(store.readSession(sessionId).header.cwd).toBe("");
    const copy = await store.continueInPi(sessionId, { env: { PI_CODING_AGENT_SESSION_DIR: path.join(dir, "pi") }, home: dir });
    expect(path.dirname(copy.file)).toBe(path.join(dir, "pi"));
    expect(store.loadEntries(copy.sessionId).map((e) => e.type)).toContain("message");
    // the file's own header stays as it was (a rewrite writes it back as read)
    expect(fs.readFileSync(file, "utf8").split("\n")[0]).toContain('"cwd":{"path":42}');
  });
});
