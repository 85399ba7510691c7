import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { movePiDownload, piCopyTarget } from "../src/main/pi-download";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const header = (over: Record<string, unknown> = {}) => JSON.stringify({ type: "session", version: 3, id: "019ffa2f-5809", timestamp: "2026-08-13T08:13:54.569Z", cwd: "/Users/u/proj", ...over });

describe("a pi session downloaded from a team archive", () => {
  it("goes where pi keeps a session of its folder", () => {
    expect(piCopyTarget(header(), {}, "/home/me")).toEqual({ file: "/home/me/.pi/agent/sessions/--Users-u-proj--/2026-08-13T08-13-54-569Z_019ffa2f-5809.jsonl" });
  });

  it("refuses a header whose id or time would leave that folder, or no header at all", () => {
    for (const line of [header({ id: "../../.bashrc" }), header({ id: "a/b" }), header({ timestamp: "../x" }), header({ type: "message" }), "not json", header({ cwd: 7 })]) {
      expect("error" in piCopyTarget(line, {}, "/home/me"), line).toBe(true);
    }
    // a folder of dots only flattens into one folder name under pi's sessions
    const target = piCopyTarget(header({ cwd: "/../../etc" }), {}, "/home/me");
    expect(target).toEqual({ file: "/home/me/.pi/agent/sessions/--..-..-etc--/2026-08-13T08-13-54-569Z_019ffa2f-5809.jsonl" });
  });

  it("is moved into pi's folder, and never over a session pi already has", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "pi-download-"));
    dirs.push(home);
    const write = (name: string, text: string) => {
      const file = path.join(home, name);
      fs.writeFileSync(file, text);
      return file;
    };
    const moved = movePiDownload(write("a.pi.jsonl", `${header()}\n{"type":"message"}\n`), {}, home);
    expect("file" in moved).toBe(true);
    if ("file" in moved) expect(fs.readFileSync(moved.file, "utf8")).toContain('"type":"message"');
    const again = write("b.pi.jsonl", `${header()}\n{"type":"other"}\n`);
    expect(movePiDownload(again, {}, home)).toMatchObject({ error: expect.stringMatching(/^pi already has a session at /) });
    expect(fs.existsSync(again)).toBe(true);
    if ("file" in moved) expect(fs.readFileSync(moved.file, "utf8")).toContain('"type":"message"');
  });
});
