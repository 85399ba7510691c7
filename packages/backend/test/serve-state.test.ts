import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadServeState, saveServeState, SERVE_STATE_FILE } from "../src/serve-state";

const dirs: string[] = [];
const temp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-serve-state-"));
  dirs.push(d);
  return d;
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("bonsai serve's token and port across restarts", () => {
  it("keeps one token per data folder in a file only the user can read", () => {
    const dir = temp();
    const first = loadServeState(dir);
    expect(first.port).toBeNull();
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(dir, SERVE_STATE_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    saveServeState(dir, { token: first.token, port: 41234 });
    expect(loadServeState(dir)).toEqual({ token: first.token, port: 41234 });
    expect(loadServeState(temp()).token).not.toBe(first.token);
  });

  it("narrows a widened file back to 0600 and replaces an unreadable one", () => {
    const dir = temp();
    const { token } = loadServeState(dir);
    const file = path.join(dir, SERVE_STATE_FILE);
    fs.chmodSync(file, 0o644);
    expect(loadServeState(dir).token).toBe(token);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.writeFileSync(file, "{not json");
    const fresh = loadServeState(dir);
    expect(fresh.token).not.toBe(token);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});
