/**
 * Every refusal of the engine and the store reaches the command line as its own sentence, one line
 * on stderr with exit status 1, never as an unexpected error: class by class through the CLI's error
 * policy, and through `bonsai compact` run in process for the ones a command provokes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BonsaiError } from "@bonsai/core";
import {
  CancelledError,
  EntryNotFoundError,
  InvalidRequestError,
  ModelError,
  ModelUnavailableError,
  NothingToCompactError,
  RefusedByHookError,
  SessionBusyError,
  SettingsValidationError,
  StaleCompactionError,
} from "@bonsai/engine";
import { BackupRefusal, ReadOnlySessionError, SessionLockedError, SessionLookupError, SourceBusyError, StaleCommitError, StoreError, WriteFailedError } from "@bonsai/store";
import { reportError } from "../src/errors";
import { bonsai } from "./run-cli";

function reported(err: unknown): { code: number; stderr: string } {
  let stderr = "";
  const code = reportError(err, { stderr: (t) => void (stderr += t) });
  return { code, stderr };
}

describe("the CLI's error policy", () => {
  it("each class of refusal is its sentence on one line, exit status 1", () => {
    const errors: Error[] = [
      new NothingToCompactError(false),
      new NothingToCompactError(true),
      new SessionBusyError("A compaction is already running for this session"),
      new StaleCompactionError(),
      new CancelledError("Compaction cancelled"),
      new RefusedByHookError("Compaction cancelled"),
      new EntryNotFoundError("e-404"),
      new InvalidRequestError("The prompt is empty"),
      new ModelUnavailableError("No API key for gpt (set OPENAI_API_KEY)"),
      new ModelError("Summarization failed: 500 the model broke"),
      new SettingsValidationError([{ field: "compaction.reserveTokens", message: "compaction.reserveTokens must be a number" }]),
      new SessionLookupError("no session s-1 in the store"),
      new StaleCommitError("the session changed since the change was planned; nothing was written"),
      new SourceBusyError("/tmp/s.jsonl", "it grew while being written"),
      new SessionLockedError("s-1"),
      new BackupRefusal("the backup differs from the file"),
      new WriteFailedError("the disk is full; nothing was written", "ENOSPC"),
      new ReadOnlySessionError("s-1", "codex"),
      new StoreError("a session s-1 already exists"),
    ];
    for (const error of errors) {
      expect(error, error.name).toBeInstanceOf(BonsaiError);
      expect(reported(error), error.name).toEqual({ code: 1, stderr: `bonsai: ${error.message}\n` });
    }
  });

  it("an error that is no refusal is still reported as a bug", () => {
    const r = reported(new Error("Compaction cancelled"));
    expect(r.code).toBe(70);
    expect(r.stderr).toContain("unexpected error");
  });
});

describe("through bonsai compact", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-errors-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a second compaction with nothing new says `Already compacted`", async () => {
    const file = path.join(dir, "s.jsonl");
    const lines = [
      { type: "session", version: 3, id: "s-err", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" },
      { type: "message", id: "u1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hello", timestamp: 1 } },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const dataDir = path.join(dir, "data");
    expect((await bonsai("compact", file, "--offline", "--data-dir", dataDir)).code).toBe(0);
    const again = await bonsai("compact", file, "--offline", "--data-dir", dataDir);
    expect(again.code).toBe(1);
    // after the progress line, the refusal's one line
    expect(again.stderr).toMatch(/(^|\n)bonsai: Already compacted\n$/);
    expect(again.stderr).not.toContain("unexpected error");
  });
});
