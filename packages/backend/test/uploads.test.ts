/** Uploads on disk: what a page that goes away, or a backend that closes, leaves behind (nothing). */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Uploads } from "../src/uploads";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-uploads-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const partials = () => (fs.existsSync(path.join(dir, "uploads", ".incoming")) ? fs.readdirSync(path.join(dir, "uploads", ".incoming")) : []);

describe("uploads", () => {
  it("an upload left idle (the page went away) is dropped and its bytes deleted", async () => {
    const uploads = new Uploads(dir, 50);
    const { uploadId } = uploads.begin("s.jsonl", 10);
    uploads.chunk(uploadId, 0, Buffer.from("hello").toString("base64"));
    expect(partials()).toHaveLength(1);
    await expect.poll(() => partials(), { timeout: 5_000 }).toEqual([]);
    expect(uploads.openCount).toBe(0);
    expect(() => uploads.chunk(uploadId, 5, Buffer.from("world").toString("base64"))).toThrow("no such upload");
  });

  it("closing drops every open upload; a new start removes what a killed one left", () => {
    const uploads = new Uploads(dir);
    uploads.begin("a.jsonl", 10);
    uploads.begin("b.jsonl", 10);
    expect(partials()).toHaveLength(2);
    uploads.close();
    expect(partials()).toEqual([]);
    // a backend killed mid-upload leaves its partial file: the next one removes it
    fs.mkdirSync(path.join(dir, "uploads", ".incoming"), { recursive: true });
    fs.writeFileSync(path.join(dir, "uploads", ".incoming", "left-by-a-crash.part"), "x");
    new Uploads(dir).close();
    expect(partials()).toEqual([]);
  });

  it("the same bytes twice are one file, named by their hash; a name cannot leave the folder", () => {
    const uploads = new Uploads(dir);
    const send = (name: string) => {
      const { uploadId } = uploads.begin(name, 3);
      uploads.chunk(uploadId, 0, Buffer.from("abc").toString("base64"));
      return uploads.finish(uploadId).file;
    };
    const a = send("../../etc/passwd");
    const b = send("..\\..\\x.jsonl");
    expect(path.dirname(a)).toBe(path.join(dir, "uploads"));
    expect(path.basename(a)).toMatch(/^[0-9a-f]{16}-passwd$/);
    expect(path.basename(b)).toMatch(/^[0-9a-f]{16}-x\.jsonl$/);
    expect(send("passwd")).toBe(a);
    const elsewhere = path.join(dir, "not-an-upload.jsonl");
    fs.writeFileSync(elsewhere, "x");
    uploads.discard(a);
    uploads.discard(elsewhere); // not one of ours: left alone
    expect(fs.existsSync(a)).toBe(false);
    expect(fs.existsSync(elsewhere)).toBe(true);
  });
});
