/**
 * The backend behind a message port (the desktop app's utility process): the same calls, events,
 * native-dialog and keychain requests to the main side, and clear failures.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectBackendOverPort, serveBackendOverPort, type Backend, type HostInit, type PortLike } from "../src/index";

function portOf(p: MessagePort): PortLike {
  return {
    postMessage: (m) => p.postMessage(m),
    onMessage: (l) => {
      p.on("message", l);
      return () => p.off("message", l);
    },
  };
}

let dir: string;
let channel: MessageChannel;
let hosted: Promise<Backend>;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-host-"));
  channel = new MessageChannel();
  hosted = serveBackendOverPort(portOf(channel.port1), { env: {} });
  hosted.catch(() => undefined); // a failing start is asserted on the main side
});
afterEach(async () => {
  await hosted.then((b) => b.close()).catch(() => undefined);
  channel.port1.close();
  channel.port2.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const init = (over: Partial<HostInit> = {}): HostInit => ({ dataDir: dir, version: "9.9.9", nativeDialogs: true, storedKey: null, keyStorage: "keychain", ...over });

describe("backend over a port", () => {
  it("answers calls, pushes events, and asks the main side for dialogs and the keychain", async () => {
    const saved: (string | null)[] = [];
    const remote = await connectBackendOverPort(portOf(channel.port2), init({ storedKey: "sk-from-keychain" }), {
      chooseSessionFiles: async () => ["/picked/a.jsonl"],
      setKey: (key) => void saved.push(key),
      clearKey: () => void saved.push(null),
    });
    const events: string[] = [];
    remote.onEvent((e) => events.push(e));

    expect(await remote.dispatch("getAppInfo", {})).toEqual({ ok: true, value: { mode: "electron", version: "9.9.9", dataDir: dir, nativeDialogs: true } });
    expect(await remote.dispatch("chooseSessionFiles", {})).toEqual({ ok: true, value: { paths: ["/picked/a.jsonl"] } });
    expect(await remote.dispatch("getSettings", {})).toMatchObject({ ok: true, value: { hasApiKey: true, apiKeySource: "keychain" } });

    const header = { type: "session", version: 3, id: "s-host", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp/host" };
    const user = { type: "message", id: "u1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } };
    const imported = await remote.dispatch("importSessions", { files: [{ name: "h.jsonl", content: `${JSON.stringify(header)}\n${JSON.stringify(user)}\n` }] });
    expect(imported).toMatchObject({ ok: true, value: { results: [{ ok: true, entriesImported: 1 }] } });
    await expect.poll(() => events).toContain("sessionsChanged");

    expect(await remote.dispatch("setApiKey", { key: "sk-new" })).toMatchObject({ ok: true, value: { hasApiKey: true } });
    expect(await remote.dispatch("clearApiKey", {})).toMatchObject({ ok: true, value: { hasApiKey: false } });
    expect(saved).toEqual(["sk-new", null]);

    const bad = await remote.dispatch("getEntry", { sessionId: 1 });
    expect(bad.ok ? null : bad.error.code).toBe("invalid_payload");

    await remote.close();
    expect(await remote.dispatch("listSessions", {})).toMatchObject({ ok: false, error: { code: "unavailable" } });
    // the host closed its database: nothing keeps it open
    await expect((await hosted).close()).resolves.toBeUndefined();
  });

  it("a key the main side cannot store is reported, not kept", async () => {
    const remote = await connectBackendOverPort(portOf(channel.port2), init(), {
      chooseSessionFiles: async () => null,
      setKey: () => {
        throw new Error("this system offers no keychain");
      },
      clearKey: () => undefined,
    });
    const r = await remote.dispatch("setApiKey", { key: "sk-x" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: "unavailable", message: "this system offers no keychain" });
    expect(await remote.dispatch("getSettings", {})).toMatchObject({ ok: true, value: { hasApiKey: false } });
  });

  it("reports a backend that cannot start", async () => {
    const file = path.join(dir, "not-a-folder");
    fs.writeFileSync(file, "x");
    await expect(
      connectBackendOverPort(portOf(channel.port2), init({ dataDir: file }), { chooseSessionFiles: async () => null, setKey: () => undefined, clearKey: () => undefined }),
    ).rejects.toThrow();
  });

  it("fails pending calls when the host goes away", async () => {
    const remote = await connectBackendOverPort(portOf(channel.port2), init(), { chooseSessionFiles: () => new Promise(() => undefined), setKey: () => undefined, clearKey: () => undefined });
    const waiting = remote.dispatch("chooseSessionFiles", {});
    remote.disconnect("the backend process exited (code 1)");
    expect(await waiting).toEqual({ ok: false, error: { code: "unavailable", message: "the backend process exited (code 1)" } });
  });
});
