/**
 * The title rule in the CLI: `bonsai ls` and the Markdown and HTML exports name an unnamed pi
 * session by its first real prompt (never "# Session <id>"), as the app's list does.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bonsai, json } from "./run-cli";

const PI_UNNAMED = path.resolve(import.meta.dirname, "../../../../shared/fixtures/real/pi/raquezha__pi.dev__96_2b1009dcd7_0_full.jsonl");

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-title-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** the first line of the file's first user message, as a person reads it in the file */
function firstPromptLine(): string {
  for (const line of readFileSync(PI_UNNAMED, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const v = JSON.parse(line) as { type: string; message?: { role: string; content: unknown } };
    if (v.type !== "message" || v.message?.role !== "user") continue;
    const c = v.message.content;
    const text = typeof c === "string" ? c : (c as { type: string; text?: string }[]).filter((b) => b.type === "text").map((b) => b.text).join("\n");
    return text.trim().split("\n")[0]!.trim().slice(0, 120);
  }
  throw new Error("no user message");
}

describe.skipIf(!existsSync(PI_UNNAMED))("the title rule in the CLI", () => {
  it("an unnamed pi session: ls, the Markdown export (file and stored) and the HTML export lead with its first prompt", async () => {
    const title = firstPromptLine();
    const id = readFileSync(PI_UNNAMED, "utf8").match(/"id":"([^"]+)"/u)![1]!;
    const md = await bonsai("export", PI_UNNAMED, "--format", "md");
    expect(md.code).toBe(0);
    expect(md.stdout.split("\n")[0]).toBe(`# ${title}`);
    expect(md.stdout).not.toContain(`# Session ${id}`);
    const html = await bonsai("export", PI_UNNAMED, "--format", "html");
    expect(html.stdout).toContain(`<h1>${title.replace(/&/gu, "&amp;").replace(/</gu, "&lt;").replace(/>/gu, "&gt;").replace(/"/gu, "&quot;").replace(/'/gu, "&#39;")}</h1>`);

    const dataDir = path.join(dir, "data");
    expect((await bonsai("import", PI_UNNAMED, "--data-dir", dataDir)).code).toBe(0);
    const ls = await bonsai("ls", "--data-dir", dataDir);
    expect(ls.stdout).toContain(title.slice(0, 60));
    const [stored] = await json<{ id: string }[]>("ls", "--data-dir", dataDir);
    const storedMd = await bonsai("export", stored!.id, "--format", "md", "--data-dir", dataDir);
    expect(storedMd.stdout.split("\n")[0]).toBe(`# ${title}`);
  });
});
