/**
 * `bonsai search` in scripts written without spaces, through the built CLI against a real database:
 * the Japanese word of a real Codex session found inside its sentence, Chinese and Thai words inside
 * generated sentences, in the database and in one file (--file).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_REAL_SESSIONS, realSession } from "./real-sessions";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = path.join(root, "apps/cli/bin/bonsai.cjs");
const codex = realSession("codex", "ta93abe__me__1b_d3b5f272f9_0_full.jsonl");
let dir = "";

function run(...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args, "--data-dir", path.join(dir, "data")], { encoding: "utf8", cwd: dir, env: { ...process.env, BONSAI_DEBUG: "", HOME: dir } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

type Hit = { sessionId: string; entryId: string; snippet: string };
const hits = (...args: string[]): Hit[] => {
  const r = run("search", ...args, "--json");
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Hit[];
};

const line = (v: unknown): string => `${JSON.stringify(v)}\n`;

function writeSession(id: string, texts: string[]): string {
  const file = path.join(dir, "sessions", `${id}.jsonl`);
  mkdirSync(path.dirname(file), { recursive: true });
  let text = line({ type: "session", version: 3, id, timestamp: "2025-01-01T00:00:00.000Z", cwd: "/work/p" });
  texts.forEach((t, i) => {
    text += line({ type: "message", id: `${id}-e${i}`, parentId: i === 0 ? null : `${id}-e${i - 1}`, timestamp: `2025-01-01T00:00:0${i + 1}.000Z`, message: { role: "user", content: t, timestamp: i } });
  });
  writeFileSync(file, text);
  return file;
}

beforeAll(() => {
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build.mjs"), "cli"], { encoding: "utf8", cwd: root });
  if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-scripts-"));
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("bonsai search in every script", () => {
  it("finds Chinese and Thai words inside sentences, in the database and in one file", () => {
    const file = writeSession("cjk-thai", ["请把数据库迁移到新的服务器", "กรุณาย้ายฐานข้อมูลไปยังเซิร์ฟเวอร์ใหม่", "plain English about the database"]);
    expect(run("import", file).code).toBe(0);
    expect(hits("数据库").map((h) => h.entryId)).toEqual(["cjk-thai-e0"]);
    expect(hits("迁移").map((h) => h.snippet)).toEqual(["请把数据库[迁移]到新的服务器"]); // two characters: the scan
    expect(hits("ฐานข้อมูล").map((h) => h.snippet)).toEqual(["กรุณาย้าย[ฐานข้อมูล]ไปยังเซิร์ฟเวอร์ใหม่"]);
    expect(hits("database").map((h) => h.entryId)).toEqual(["cjk-thai-e2"]);
    expect(hits("数据库", "--file", file).map((h) => h.entryId)).toEqual(["cjk-thai-e0"]);
    expect(hits("ฐานข้อมูล", "--file", file).map((h) => h.entryId)).toEqual(["cjk-thai-e1"]);
    const text = run("search", "服务器");
    expect(text.stdout).toMatch(/^cjk-thai +cjk-thai-e0 +user +请把数据库迁移到新的\[服务器\]\n$/);
  });

  it.skipIf(!HAVE_REAL_SESSIONS)("finds マイグレーション inside the sentence of the real Codex session (every line that holds it)", () => {
    const lines = readFileSync(codex, "utf8").split("\n").filter((l) => l.includes("マイグレーション")).length;
    expect(lines).toBe(4);
    expect(run("import", codex).code).toBe(0);
    const found = hits("マイグレーション");
    expect(found.length).toBe(lines);
    for (const h of found) expect(h.snippet).toContain("sveltia の[マイグレーション]を進めて");
    expect(hits("マイグレーション", "--file", codex).length).toBe(lines);
    expect(run("search", "マイグレーション").stdout).toMatch(/user +sveltia の\[マイグレーション\]を進めて\n/);
  });
});
