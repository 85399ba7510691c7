/**
 * The backend behind a message port (the desktop app's utility process): the same calls, events,
 * native-dialog and keychain requests to the main side, and clear failures.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectBackendOverPort, serveBackendOverPort, type Backend, type HostAnswers, type HostInit, type PortLike } from "../src/index";
import { upload } from "./support";

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

/** The main side's answers: every dialog cancelled unless a test says otherwise. */
const answers = (over: Partial<HostAnswers> = {}): HostAnswers => ({
  openSessionFiles: async () => null,
  saveSessionFile: async () => null,
  chooseFolder: async () => null,
  chooseGitRepository: async () => null,
  confirmSettings: async () => false,
  setKey: () => undefined,
  clearKey: () => undefined,
  ...over,
});

describe("backend over a port", () => {
  it("answers calls, pushes events, and asks the main side for dialogs and the keychain", async () => {
    const saved: (string | null)[] = [];
    const remote = await connectBackendOverPort(
      portOf(channel.port2),
      init({ storedKey: "sk-from-keychain" }),
      answers({ setKey: (key) => void saved.push(key), clearKey: () => void saved.push(null) }),
    );
    const events: string[] = [];
    remote.onEvent((e) => events.push(e));

    expect(await remote.dispatch("getAppInfo", {})).toEqual({ ok: true, value: { mode: "electron", version: "9.9.9", dataDir: dir, nativeDialogs: true } });
    expect(await remote.dispatch("importFromDialog", {})).toEqual({ ok: true, value: { cancelled: true, results: [] } });
    expect(await remote.dispatch("getSettings", {})).toMatchObject({ ok: true, value: { hasApiKey: true, apiKeySource: "keychain" } });

    const header = { type: "session", version: 3, id: "s-host", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp/host" };
    const user = { type: "message", id: "u1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } };
    const uploadId = await upload(remote.dispatch, "h.jsonl", `${JSON.stringify(header)}\n${JSON.stringify(user)}\n`);
    const imported = await remote.dispatch("importSessions", { uploads: [uploadId] });
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
    const remote = await connectBackendOverPort(
      portOf(channel.port2),
      init(),
      answers({
        setKey: () => {
          throw new Error("this system offers no keychain");
        },
      }),
    );
    const r = await remote.dispatch("setApiKey", { key: "sk-x" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: "unavailable", message: "this system offers no keychain" });
    expect(await remote.dispatch("getSettings", {})).toMatchObject({ ok: true, value: { hasApiKey: false } });
  });

  it("reports a backend that cannot start", async () => {
    const file = path.join(dir, "not-a-folder");
    fs.writeFileSync(file, "x");
    await expect(
      connectBackendOverPort(portOf(channel.port2), init({ dataDir: file }), answers()),
    ).rejects.toThrow();
  });

  it("fails pending calls when the host goes away", async () => {
    const remote = await connectBackendOverPort(portOf(channel.port2), init(), answers({ openSessionFiles: () => new Promise(() => undefined) }));
    const waiting = remote.dispatch("importFromDialog", {});
    remote.disconnect("the backend process exited (code 1)");
    expect(await waiting).toEqual({ ok: false, error: { code: "unavailable", message: "the backend process exited (code 1)" } });
  });
});

describe("the desktop app: host capabilities go through the main process's dialogs", () => {
  const session = (id: string) =>
    [
      { type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp/d" },
      { type: "message", id: "u1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n") + "\n";

  it("imports what the open dialog chose, never a path from the window", async () => {
    const picked = path.join(dir, "picked.jsonl");
    fs.writeFileSync(picked, session("s-picked"));
    const remote = await connectBackendOverPort(portOf(channel.port2), init(), answers({ openSessionFiles: async () => [picked] }));
    const imported = await remote.dispatch("importFromDialog", { requestId: "d1" });
    expect(imported).toMatchObject({ ok: true, value: { cancelled: false, results: [{ ok: true, source: picked, entriesImported: 1 }] } });
    // the same file named by the window itself is refused: it is not in a session folder
    expect(await remote.dispatch("importSessions", { paths: [picked] })).toMatchObject({ ok: false, error: { code: "forbidden" } });
  });

  it("saves an export where the save dialog said; cancelled writes nothing; no download URLs", async () => {
    const target = path.join(dir, "out", "saved.md");
    fs.mkdirSync(path.dirname(target));
    const suggested: string[] = [];
    let answer: string | null = null;
    const remote = await connectBackendOverPort(
      portOf(channel.port2),
      init(),
      answers({ saveSessionFile: async (name) => (suggested.push(name), answer) }),
    );
    const uploadId = await upload(remote.dispatch, "chat.jsonl", session("s-save"));
    const imported = (await remote.dispatch("importSessions", { uploads: [uploadId] })) as { ok: true; value: { results: { sessionId: string }[] } };
    const sessionId = imported.value.results[0]!.sessionId;
    expect(await remote.dispatch("saveSessionAs", { sessionId, format: "markdown" })).toEqual({ ok: true, value: { path: null } });
    expect(fs.readdirSync(path.dirname(target))).toEqual([]);
    answer = target;
    expect(await remote.dispatch("saveSessionAs", { sessionId, format: "markdown" })).toEqual({ ok: true, value: { path: target } });
    expect(fs.readFileSync(target, "utf8")).toContain("hi");
    expect(suggested).toEqual(["chat.md", "chat.md"]);
    expect(await remote.dispatch("exportSession", { sessionId, format: "jsonl" })).toMatchObject({ ok: false, error: { code: "unavailable" } });
  });

  it("folders come from the folder picker; the window may only remove them", async () => {
    const hooks = path.join(dir, "my-hooks");
    const extra = path.join(dir, "more-sessions");
    const remote = await connectBackendOverPort(
      portOf(channel.port2),
      init(),
      answers({ chooseFolder: async (field) => (field === "hooksDir" ? hooks : extra) }),
    );
    expect(await remote.dispatch("pickSettingsFolder", { field: "hooksDir" })).toMatchObject({ ok: true, value: { cancelled: false, state: { settings: { hooksDir: hooks }, hostSettings: { changeWith: "dialogs" } } } });
    expect(await remote.dispatch("pickSettingsFolder", { field: "sessionDirs" })).toMatchObject({ ok: true, value: { state: { settings: { sessionDirs: [extra] } } } });
    // a folder named by the window is refused; taking one away is not
    expect(await remote.dispatch("setSettings", { patch: { hooksDir: "/tmp/elsewhere" } })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(await remote.dispatch("setSettings", { patch: { sessionDirs: [extra, "/"] } })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(await remote.dispatch("setSettings", { patch: { sessionDirs: [], hooksDir: "" } })).toMatchObject({ ok: true, value: { settings: { sessionDirs: [], hooksDir: "" } } });
  });

  it("an environment variable or an address changes only after the main process's confirmation", async () => {
    const asked: unknown[] = [];
    let confirm = false;
    const remote = await connectBackendOverPort(
      portOf(channel.port2),
      init(),
      answers({ confirmSettings: async (changes) => (asked.push(changes), confirm) }),
    );
    const patch = { model: { apiKeyEnv: "OTHER_KEY", baseUrl: "http://127.0.0.1:9/v1" } };
    expect(await remote.dispatch("setSettings", { patch })).toMatchObject({ ok: false, error: { code: "aborted" } });
    expect(await remote.dispatch("getSettings", {})).toMatchObject({ ok: true, value: { settings: { model: { apiKeyEnv: "OPENAI_API_KEY", baseUrl: "" } } } });
    confirm = true;
    expect(await remote.dispatch("setSettings", { patch })).toMatchObject({ ok: true, value: { settings: { model: { apiKeyEnv: "OTHER_KEY", baseUrl: "http://127.0.0.1:9/v1" } } } });
    expect(asked[0]).toEqual([
      { field: "model.apiKeyEnv", from: "OPENAI_API_KEY", to: "OTHER_KEY" },
      { field: "model.baseUrl", from: "(empty)", to: "http://127.0.0.1:9/v1" },
    ]);
    // settings that do not reach the host need no confirmation
    expect(await remote.dispatch("setSettings", { patch: { theme: "dark" } })).toMatchObject({ ok: true });
    expect(asked).toHaveLength(2);
  });
});
