/** A real backend on a temporary data folder per test, and a session imported from JSONL lines. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach } from "vitest";
import { createBackend, type Backend } from "../src/index";

/** Registers the hooks; the returned function gives the current test's backend. */
export function useBackend(): () => Backend {
  let dir = "";
  let backend: Backend | undefined;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-backend-"));
    backend = createBackend({ dataDir: dir, env: {} });
  });
  afterEach(async () => {
    await backend?.close();
    backend = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!backend) throw new Error("no backend outside a test");
    return backend;
  };
}

/** Imports one session (header and entries as objects) through the backend; returns its id. */
export async function importLines(backend: Backend, lines: readonly object[]): Promise<string> {
  const content = lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  const imported = await backend.dispatch("importSessions", { files: [{ name: "s.jsonl", content }], requestId: "r" });
  if (!imported.ok) throw new Error(imported.error.message);
  return (imported.value as { results: { sessionId: string }[] }).results[0]!.sessionId;
}
