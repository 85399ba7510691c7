/**
 * The CLI's output written to the standard descriptors (src/descriptor-output.ts): whole through
 * partial writes and a full non-blocking pipe, quiet when the reader is gone, and, in the built CLI,
 * without Node's stream modules for a pipe. Real FIFOs and processes.
 */
import { execFileSync, spawn } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTerminal, writeAll } from "../src/descriptor-output";
import { buildCli, runListingBuiltins } from "./list-modules";

const posix = process.platform !== "win32";
let dir = "";

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-descriptor-output-"));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** a FIFO with a reader open on it (so that a non-blocking writer may open), and a writer */
function fifo(name: string): { file: string; reader: number; writer: number } {
  const file = path.join(dir, name);
  execFileSync("mkfifo", [file]);
  const reader = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
  return { file, reader, writer };
}

class Closed extends Error {}
const closed = (): never => {
  throw new Closed("the reader is gone");
};

describe.runIf(posix)("writeAll", () => {
  it("writes text and bytes whole through a non-blocking pipe that fills before its reader starts (partial writes, EAGAIN)", async () => {
    const { file, reader, writer } = fifo("full.fifo");
    const out = path.join(dir, "full.out");
    // the reader starts after the pipe (64 KiB) is full: the writes are partial, then refused (EAGAIN) until it reads
    const cat = spawn("sh", ["-c", 'sleep 0.3; cat "$0" > "$1"', file, out], { stdio: "ignore" });
    const done = new Promise<number | null>((resolve) => cat.on("close", resolve));
    const text = Array.from({ length: 20_000 }, (_, i) => `line ${i} \u00e9\u4e2d\u{1f333}\n`).join("");
    const bytes = new Uint8Array(700_000).map((_, i) => (i * 7) % 256);
    try {
      writeAll(writer, text, closed);
      writeAll(writer, bytes, closed);
      writeAll(writer, "end\n", closed);
    } finally {
      closeSync(writer);
      closeSync(reader);
    }
    expect(await done).toBe(0);
    const got = readFileSync(out);
    const expected = Buffer.concat([Buffer.from(text), bytes, Buffer.from("end\n")]);
    expect(got.length).toBe(expected.length);
    expect(got.equals(expected)).toBe(true);
  });

  it("calls onClosed when the reader is gone (EPIPE), and throws any other failure", () => {
    const { reader, writer } = fifo("gone.fifo");
    closeSync(reader);
    try {
      expect(() => writeAll(writer, "anyone?\n", closed)).toThrow(Closed);
      expect(() => writeAll(writer, new Uint8Array([1, 2, 3]), closed)).toThrow(Closed);
    } finally {
      closeSync(writer);
    }
    const readOnly = openSync(path.join(dir, "gone.fifo.txt"), "w+");
    closeSync(readOnly);
    const again = openSync(path.join(dir, "gone.fifo.txt"), "r");
    try {
      expect(() => writeAll(again, "x", closed)).toThrow(/EBADF/);
    } finally {
      closeSync(again);
    }
  });
});

describe.runIf(posix)("isTerminal", () => {
  it("is false for a file, a pipe and /dev/null (a character device that is no terminal)", () => {
    const file = openSync(path.join(dir, "plain.txt"), "w");
    const { reader, writer } = fifo("not-a-tty.fifo");
    const devNull = openSync("/dev/null", "w");
    try {
      expect(isTerminal(file)).toBe(false);
      expect(isTerminal(reader)).toBe(false);
      expect(isTerminal(writer)).toBe(false);
      expect(isTerminal(devNull)).toBe(false);
      expect(isTerminal(987_654)).toBe(false);
    } finally {
      for (const fd of [file, reader, writer, devNull]) closeSync(fd);
    }
  });
});

describe("the built CLI's output to pipes", () => {
  beforeAll(() => buildCli(), 120_000);

  /** runs bin/bonsai.cjs with piped output; `builtins`: Node's modules it loaded after its start */
  function piped(db: string, ...args: string[]): { code: number; stdout: string; stderr: string; builtins: string[] } {
    return spawned(["ignore", "pipe", "pipe"], db, ...args);
  }
  /** the same with the given stdio ("ignore": the null device) */
  function spawned(stdio: ("pipe" | "ignore")[], db: string, ...args: string[]): { code: number; stdout: string; stderr: string; builtins: string[] } {
    return runListingBuiltins(dir, db, args, { stdio });
  }
  const streamModules = (builtins: string[]): string[] => builtins.filter((m) => /^NativeModule (net|tty|internal\/fs\/sync_write_stream)$/.test(m));

  it("an import, its mistakes and a stored read write to the descriptors: no socket or tty stream is made", () => {
    const db = path.join(dir, "piped.db");
    const file = path.join(dir, "piped.jsonl");
    writeFileSync(file, sessionToJsonl(generateSession({ entries: 120, seed: 8 })));
    const imported = piped(db, "import", file, "--json");
    expect(imported.code, imported.stderr).toBe(0);
    const report = (JSON.parse(imported.stdout) as { reports: { status: string; sessionId: string }[] }).reports[0];
    expect(report?.status).toBe("imported");
    expect(streamModules(imported.builtins)).toEqual([]);
    const missing = piped(db, "import", path.join(dir, "nosuchfile.jsonl"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`bonsai: ${path.join(dir, "nosuchfile.jsonl")}: no such file or directory\n`);
    expect(streamModules(missing.builtins)).toEqual([]);
    const context = piped(db, "context", report?.sessionId as string, "--json");
    expect(context.code, context.stderr).toBe(0);
    expect(JSON.parse(context.stdout)).toHaveProperty("leafId");
    expect(streamModules(context.builtins)).toEqual([]);
    // output thrown away (the null device, a character device that is no terminal): no tty module either
    const ignored = spawned(["ignore", "ignore", "ignore"], db, "context", report?.sessionId as string, "--json");
    expect(ignored.code).toBe(0);
    expect(streamModules(ignored.builtins)).toEqual([]);
  });
});
