/** The CLI run in process (runCli) with its output captured, for the command tests. */
import { expect } from "vitest";
import { runCli } from "../src/cli";

export async function bonsai(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, { stdout: (t) => void (stdout += typeof t === "string" ? t : Buffer.from(t).toString()), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

/** Runs a command with --json, expects success and nothing on stderr, and parses the output. */
export async function json<T = Record<string, unknown>>(...argv: string[]): Promise<T> {
  const r = await bonsai(...argv, "--json");
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as T;
}
