/**
 * Browser mode cannot reach the host: a real `bonsai serve` (startServer over a real backend) and a
 * real WebSocket client holding the page's token try what the page must not do — run code, read a
 * file outside the allowed folders, write a file, name an environment variable, change a host
 * folder — and what it may do still works. Part of the fault suite.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { connectWebSocket, createApi, HOST_SETTINGS, IpcError, MAX_FRAME_BYTES, UPLOAD_CHUNK_BYTES, type BonsaiApi, type WsBridge } from "@bonsai/ipc";
import { generateSession, sessionToJsonl, startMockOpenAiServer, type MockOpenAiServer } from "@bonsai/testkit";
import { createBackend, type Backend } from "../src/index";
import { startServer, type RunningServer } from "../src/server";

const SECRET = "the-host-secret-4f1c9";
const KEY = "sk-configured-key-77";

let dir: string;
let dataDir: string;
let agentDir: string;
let outside: string;
let backend: Backend;
let server: RunningServer;
let model: MockOpenAiServer;
let bridge: WsBridge;
let api: BonsaiApi;

const wsUrl = () => `ws://127.0.0.1:${server.port}/ws?token=${encodeURIComponent(server.token)}`;
const session = (seed: number) => sessionToJsonl(generateSession({ entries: 30, seed, compactionInterval: 0, branchProbability: 0 }));

/** The call is refused with this code; returns the message. */
async function refused(call: Promise<unknown>, code: string): Promise<string> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, "the call should have been refused").toBeInstanceOf(IpcError);
  expect((err as IpcError).code).toBe(code);
  return (err as IpcError).message;
}

/** every file below `root`, relative */
function filesBelow(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
    .sort();
}

async function upload(name: string, content: string | Buffer): Promise<string> {
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  const { uploadId, chunkBytes } = await api.beginUpload({ name, size: bytes.length });
  for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
    await api.uploadChunk({ uploadId, offset, data: bytes.subarray(offset, offset + chunkBytes).toString("base64") });
  }
  return uploadId;
}

beforeAll(async () => {
  model = await startMockOpenAiServer({ models: ["mock-1"] });
});
afterAll(async () => {
  await model.close();
});

beforeEach(async () => {
  model.reset();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-capabilities-"));
  dataDir = path.join(dir, "data");
  agentDir = path.join(dir, "agent-sessions");
  outside = path.join(dir, "elsewhere");
  fs.mkdirSync(agentDir, { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  fs.writeFileSync(path.join(outside, "secret.txt"), `password=${SECRET}\n`);
  fs.writeFileSync(path.join(outside, "other.jsonl"), session(1));
  const rendererDir = path.join(dir, "renderer");
  fs.mkdirSync(rendererDir);
  fs.writeFileSync(path.join(rendererDir, "index.html"), "<!doctype html><title>Bonsai</title>");
  backend = createBackend({
    dataDir,
    mode: "browser",
    env: { BONSAI_SESSIONS_DIRS: agentDir, HOST_SECRET: SECRET, MODEL_KEY: KEY, HOME: path.join(dir, "home") },
  });
  // the host configured its model (as `bonsai config set` does): a key from MODEL_KEY, sent to the loopback server
  backend.engine.updateSettings({ model: { baseUrl: model.baseUrl, model: "mock-1", apiKeyEnv: "MODEL_KEY" } });
  server = await startServer({ backend, rendererDir });
  bridge = connectWebSocket({ url: wsUrl(), create: (u) => new WebSocket(u) as unknown as ReturnType<Parameters<typeof connectWebSocket>[0]["create"]>, maxReconnects: 0 });
  api = createApi(bridge);
});

afterEach(async () => {
  bridge.close();
  await server.close();
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("settings that reach the host are read-only from the page", () => {
  it("every host setting is refused with forbidden and the exact host command; nothing changes", async () => {
    const before = await api.getSettings();
    expect(before.hostSettings).toMatchObject({ fields: HOST_SETTINGS.map((s) => s.field), changeWith: "cli", database: path.join(dataDir, "bonsai.db") });
    const attempts = [
      { hooksDir: path.join(dataDir, "uploads") },
      { sessionDirs: ["/"] },
      { model: { apiKeyEnv: "HOST_SECRET" } },
      { model: { baseUrl: "http://127.0.0.1:9/v1" } },
      { compaction: { remoteEndpoint: "http://127.0.0.1:9/summarize" } },
    ];
    for (const [i, patch] of attempts.entries()) {
      const field = HOST_SETTINGS[i]!.field;
      const message = await refused(api.setSettings({ patch }), "forbidden");
      expect(message).toContain(`${field} is a host setting`);
      expect(message).toContain(`bonsai config set ${field} `);
      expect(message).toContain(`--data-dir ${dataDir}`);
      expect(message).toContain(`settings are kept in ${path.join(dataDir, "bonsai.db")}`);
    }
    // a patch that mixes a harmless field with a host one changes nothing at all
    await refused(api.setSettings({ patch: { theme: "dark", model: { apiKeyEnv: "HOST_SECRET" } } }), "forbidden");
    expect((await api.getSettings()).settings).toEqual(before.settings);
    // the same value again is no change, and the other settings still work from the page
    const after = await api.setSettings({ patch: { theme: "dark", model: { apiKeyEnv: "MODEL_KEY", contextWindow: 64000 } } });
    expect(after.settings).toMatchObject({ theme: "dark", model: { apiKeyEnv: "MODEL_KEY", contextWindow: 64000, baseUrl: model.baseUrl } });
  });

  it("no code runs: an uploaded module cannot become a hook", async () => {
    const marker = path.join(dir, "hook-ran");
    const hook = `import * as fs from "node:fs"; fs.writeFileSync(${JSON.stringify(marker)}, "ran"); export default {};`;
    const { results } = await api.importSessions({ uploads: [await upload("hook.mjs", hook)] });
    expect(results[0]).toMatchObject({ ok: false, error: "not a session file: it is not JSON lines (its first line is not JSON); Bonsai reads pi / oh-my-pi sessions, Claude Code transcripts and Codex rollouts" });
    // not kept on disk either
    expect(filesBelow(path.join(dataDir, "uploads"))).toEqual([]);
    await refused(api.setSettings({ patch: { hooksDir: path.join(dataDir, "uploads") } }), "forbidden");
    await refused(api.pickSettingsFolder({ field: "hooksDir" }), "unavailable");
    await backend.engine.loadUserHooks();
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("Test connection never sends a value of a variable the page named, nor to an address it chose", async () => {
    await refused(api.setSettings({ patch: { model: { apiKeyEnv: "HOST_SECRET", baseUrl: `${model.origin}/evil/v1` } } }), "forbidden");
    const r = await api.testConnection();
    expect(r.ok).toBe(true);
    const sent = model.requests.map((q) => `${q.path} ${q.headers.authorization ?? ""} ${q.rawBody}`).join("\n");
    expect(sent).not.toContain(SECRET);
    expect(sent).not.toContain("/evil/");
    expect(model.requests.every((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });
});

describe("imports from the page", () => {
  it("a path outside the session folders is refused before anything is read", async () => {
    for (const p of [
      path.join(outside, "secret.txt"),
      path.join(outside, "other.jsonl"),
      "/etc/passwd",
      path.join(agentDir, "..", "elsewhere", "other.jsonl"),
      "other.jsonl",
      dir,
    ]) {
      const message = await refused(api.importSessions({ paths: [p] }), "forbidden");
      expect(message).toContain(agentDir);
      expect(message).not.toContain(SECRET);
    }
    // one bad path refuses the whole call: the good one next to it is not imported either
    fs.writeFileSync(path.join(agentDir, "good.jsonl"), session(2));
    await refused(api.importSessions({ paths: [path.join(agentDir, "good.jsonl"), path.join(outside, "other.jsonl")] }), "forbidden");
    expect((await api.listSessions()).sessions).toEqual([]);
  });

  it("a symbolic link inside a session folder that leads outside is refused, also inside a folder import", async () => {
    fs.symlinkSync(path.join(outside, "other.jsonl"), path.join(agentDir, "link.jsonl"));
    fs.symlinkSync(outside, path.join(agentDir, "linked-folder"));
    await refused(api.importSessions({ paths: [path.join(agentDir, "link.jsonl")] }), "forbidden");
    await refused(api.importSessions({ paths: [path.join(agentDir, "linked-folder", "other.jsonl")] }), "forbidden");
    fs.mkdirSync(path.join(agentDir, "project"));
    fs.writeFileSync(path.join(agentDir, "project", "real.jsonl"), session(3));
    const { results } = await api.importSessions({ paths: [agentDir] });
    expect(results.filter((r) => r.ok).map((r) => path.basename(r.source))).toEqual(["real.jsonl"]);
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([
      "skipped: it leads outside the session folders (a symbolic link)",
      "skipped: it leads outside the session folders (a symbolic link)",
    ]);
    // the links are named, never the names of the files behind a symlinked folder
    expect(results.filter((r) => !r.ok).map((r) => r.source)).toEqual([path.join(agentDir, "link.jsonl"), path.join(agentDir, "linked-folder")]);
    expect(JSON.stringify(results)).not.toContain(path.join("linked-folder", "other.jsonl"));
    expect((await api.listSessions()).sessions.map((s) => s.sourcePath)).toEqual([path.join(agentDir, "project", "real.jsonl")]);
  });

  it("a folder the host configured is allowed; the agents' default folders are", async () => {
    const home = path.join(dir, "home", ".pi", "agent", "sessions");
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, "pi.jsonl"), session(4));
    await refused(api.importSessions({ paths: [path.join(outside, "other.jsonl")] }), "forbidden");
    backend.engine.updateSettings({ sessionDirs: [outside] }); // on the host: `bonsai config set sessionDirs DIR`
    const { results } = await api.importSessions({ paths: [path.join(outside, "other.jsonl"), path.join(home, "pi.jsonl")] });
    expect(results.map((r) => r.ok)).toEqual([true, true]);
  });

  it("a file that is not a session is reported without a word of its content", async () => {
    const files: [string, string][] = [
      ["notes.jsonl", `${SECRET} is the password\n{"type":"${SECRET}"}\n[1,"${SECRET}"]\n`],
      ["typed.jsonl", `{"type":"${SECRET}","id":"x"}\n`],
      ["header.jsonl", `{"type":"session","id":{"v":"${SECRET}"}}\n`],
      ["version.jsonl", `{"type":"session","id":"s","version":"${SECRET}"}\n`],
    ];
    for (const [name, content] of files) fs.writeFileSync(path.join(agentDir, name), content);
    const { results } = await api.importSessions({ paths: files.map(([name]) => path.join(agentDir, name)) });
    expect(results.map((r) => [r.ok, r.warnings])).toEqual(files.map(() => [false, []]));
    for (const r of results) expect(r.error).toMatch(/^not a session/);
    expect(JSON.stringify(results)).not.toContain(SECRET);
    // a session whose header fields are of the wrong type imports, with warnings that quote nothing
    fs.writeFileSync(path.join(agentDir, "odd-header.jsonl"), session(7).replace(/"cwd":"[^"]*"/u, `"cwd":{"${SECRET}":1}`).replace(/"timestamp":"[^"]*"/u, `"timestamp":["${SECRET}"]`));
    const odd = await api.importSessions({ paths: [path.join(agentDir, "odd-header.jsonl")] });
    expect(odd.results[0]).toMatchObject({ ok: true });
    expect(odd.results[0]!.warnings.length).toBeGreaterThan(0);
    expect(JSON.stringify(odd)).not.toContain(SECRET);
    const uploaded = await api.importSessions({ uploads: [await upload("passwd.jsonl", `root:x:0:0:${SECRET}:/root:/bin/bash\n`)] });
    expect(JSON.stringify(uploaded)).not.toContain(SECRET);
  });

  it("skipped lines of a session are described, not quoted", async () => {
    const lines = session(5).split("\n");
    lines.splice(3, 0, `{"broken": "${SECRET}`, `"${SECRET}"`);
    const { results } = await api.importSessions({ uploads: [await upload("with-bad-lines.jsonl", lines.join("\n"))] });
    expect(results[0]).toMatchObject({ ok: true, warnings: ["line 4: a line that is not valid JSON was skipped", "line 5: a line that is not a JSON object was skipped"] });
    expect(JSON.stringify(results)).not.toContain(SECRET);
  });

  it("the desktop app's dialogs are not there in browser mode", async () => {
    await refused(api.importFromDialog({}), "unavailable");
    await refused(api.saveSessionAs({ sessionId: "x", format: "jsonl" }), "unavailable");
  });
});

describe("uploads", () => {
  it("arrive in chunks, in order, no more than announced; a rejected or cancelled upload leaves nothing on disk", async () => {
    const content = Buffer.from(session(6));
    const { uploadId, chunkBytes } = await api.beginUpload({ name: "s.jsonl", size: content.length });
    expect(chunkBytes).toBe(UPLOAD_CHUNK_BYTES);
    const part = (from: number, to: number) => content.subarray(from, to).toString("base64");
    await refused(api.uploadChunk({ uploadId, offset: 10, data: part(10, 20) }), "conflict");
    await api.uploadChunk({ uploadId, offset: 0, data: part(0, 100) });
    const incomplete = await api.importSessions({ uploads: [uploadId] });
    expect(incomplete.results[0]).toMatchObject({ ok: false, error: expect.stringContaining("is incomplete: 100 of") });
    expect(filesBelow(path.join(dataDir, "uploads"))).toEqual([]);

    const second = await api.beginUpload({ name: "s.jsonl", size: 10 });
    await refused(api.uploadChunk({ uploadId: second.uploadId, offset: 0, data: part(0, 11) }), "invalid_payload");
    await refused(api.uploadChunk({ uploadId: second.uploadId, offset: 0, data: part(0, 5) }), "not_found"); // dropped
    const third = await api.beginUpload({ name: "s.jsonl", size: content.length });
    await api.uploadChunk({ uploadId: third.uploadId, offset: 0, data: part(0, 100) });
    expect(filesBelow(path.join(dataDir, "uploads"))).toHaveLength(1);
    expect(await api.cancelUpload({ uploadId: third.uploadId })).toEqual({ cancelled: true });
    expect(filesBelow(path.join(dataDir, "uploads"))).toEqual([]);
    await refused(api.beginUpload({ name: "huge.jsonl", size: 3 * 1024 ** 3 }), "invalid_payload");

    const good = await api.importSessions({ uploads: [await upload("kept.jsonl", content)] });
    expect(good.results[0]).toMatchObject({ ok: true, entriesImported: 30 });
    expect(filesBelow(path.join(dataDir, "uploads"))).toEqual([expect.stringMatching(/^[0-9a-f]{16}-kept\.jsonl$/)]);
  });

  it("a file larger than one frame travels in several chunks and arrives whole", async () => {
    const big = Buffer.from(sessionToJsonl(generateSession({ entries: 3000, seed: 8, contentScale: 4 })));
    expect(big.length).toBeGreaterThan(3 * 1024 * 1024);
    const { results } = await api.importSessions({ uploads: [await upload("big.jsonl", big)] });
    expect(results[0]).toMatchObject({ ok: true, entriesImported: 3000 });
    const stored = (await api.listSessions()).sessions[0]!.sourcePath!;
    expect(fs.readFileSync(stored).equals(big)).toBe(true);
  });
});

describe("frames", () => {
  it("a frame over the limit closes that connection only; the client refuses to send one", async () => {
    await refused(api.prompt({ sessionId: "s", text: "x".repeat(MAX_FRAME_BYTES) }), "invalid_payload");
    const raw = new WebSocket(wsUrl());
    await new Promise((resolve) => raw.once("open", resolve));
    const closed = new Promise<number>((resolve) => raw.once("close", (code) => resolve(code)));
    raw.send(JSON.stringify({ t: "call", id: 1, method: "listSessions", params: { pad: "x".repeat(MAX_FRAME_BYTES) } }));
    expect(await closed).toBe(1009);
    expect((await api.listSessions()).sessions).toEqual([]);
  });
});

describe("exports from the page are downloads", () => {
  it("no path can be given; the download needs the token, works once, and leaves no file", async () => {
    const { results } = await api.importSessions({ uploads: [await upload("export-me.jsonl", session(9))] });
    const sessionId = results[0]!.sessionId!;
    const target = path.join(outside, "written-by-the-page.jsonl");
    const withPath = await backend.dispatch("exportSession", { sessionId, format: "jsonl", path: target });
    expect(withPath.ok ? null : withPath.error.code).toBe("invalid_payload");

    const md = await api.exportSession({ sessionId, format: "markdown" });
    expect(md).toMatchObject({ fileName: "export-me.md", mimeType: "text/markdown; charset=utf-8" });
    const jsonl = await api.exportSession({ sessionId, format: "jsonl" });
    expect(jsonl.url).toMatch(/^\/download\/[A-Za-z0-9_-]{32}$/);
    expect((await fetch(`${server.origin}${jsonl.url}`)).status).toBe(403);
    expect((await fetch(`${server.origin}${jsonl.url}?token=wrong`)).status).toBe(403);
    const res = await fetch(`${server.origin}${jsonl.url}?token=${server.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain('filename="export-me.jsonl"');
    expect((await res.text()).split("\n").filter(Boolean)).toHaveLength(31);
    expect((await fetch(`${server.origin}${jsonl.url}?token=${server.token}`)).status).toBe(404);
    expect((await fetch(`${server.origin}${md.url}?token=${server.token}`)).status).toBe(200);
    await expect.poll(() => filesBelow(path.join(dataDir, "downloads"))).toEqual([]);
    expect(fs.existsSync(target)).toBe(false);
  });
});

describe("the host changes them", () => {
  it("`bonsai config set` on the same database reaches a running serve from its next call", async () => {
    const { openStore } = await import("@bonsai/store");
    const { SettingsManager } = await import("@bonsai/engine");
    const other = openStore({ path: backend.dbPath }); // what the CLI opens
    try {
      new SettingsManager(other).update({ model: { baseUrl: `${model.origin}/v1`, apiKeyEnv: "HOST_SECRET" } });
    } finally {
      other.close();
    }
    expect((await api.getSettings()).settings.model).toMatchObject({ baseUrl: `${model.origin}/v1`, apiKeyEnv: "HOST_SECRET" });
    expect((await api.testConnection()).ok).toBe(true);
    expect(model.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
    // a page change of another setting keeps what the host set
    await api.setSettings({ patch: { theme: "light" } });
    expect((await api.getSettings()).settings.model.apiKeyEnv).toBe("HOST_SECRET");
  });
});
