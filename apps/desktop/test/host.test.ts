/**
 * The desktop host without its binary: the built main and preload bundles run under Node with a
 * recording stand-in for `electron` (test/host/electron-stand-in.mjs, resolved by a loader hook),
 * the backend as a real child process with a real SQLite store. Checks the window's security, the
 * preload's surface, main's IPC handler, the menu against the renderer's command table, the
 * navigation and new-window guards, the app:// protocol and quitting.
 */
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contract } from "@bonsai/ipc";
import { METHOD_NAMES } from "@bonsai/ipc/names";

const desktop = path.resolve(import.meta.dirname, "..");
const outDir = path.join(desktop, "out");
const built = fs.existsSync(path.join(outDir, "main/index.js")) && fs.existsSync(path.join(outDir, "preload/index.cjs"));

const APP = "app://bonsai/index.html";
const FOREIGN = ["http://localhost:5173.evil.example/", "http://localhost:51730/", "https://example.com/", "file:///etc/passwd", "app://evil/index.html"];

interface Report {
  webPreferences: Record<string, unknown>;
  icon: string | null;
  appUrl: string;
  guards: Record<string, { navigationAllowed: boolean; windowAllowed: boolean; openedExternally: boolean }>;
  calls: Record<string, { channel: string; foreign: string; own: string }>;
  menuSends: { label: string; sent: [string, { command: string }][]; openedPaths: string[]; windowsOpened: string[] }[];
  failedFolders: [string, [string, { level: string; message: string }][]][];
  dialogImport: { ok: boolean; imported: [string, boolean][] | string; recentDocuments: string[] } | null;
  paths: { userData: string; logs: string };
  unhandled: string[];
  archiveWindow: { loadedUrl: string; loaded: number | string | null; loadedCsp: string | null; webPreferences: Record<string, unknown>; partition: string | null; permissionCheck: boolean | null; navigation: [string, boolean][]; mainWindowToArchive: boolean } | null;
  labels: string[];
  exposed: Record<string, string[]>;
  pathForFile: { droppedPath: string | null; asked: (string | null)[] };
  served: number | null;
  escaped: number | null;
  quit: { prevented: boolean; exitCode: number | null; backendExit: number | string };
  permissionCheck: unknown;
}

const DEV_SERVER = "http://localhost:5173/";
/** the session file File → Import's dialog picks in the host run (a real pi session, read in place) */
const IMPORTED = path.resolve(desktop, "../../../shared/fixtures/real/pi/raquezha__pi.dev__96_2b1009dcd7_2_full.jsonl");
/** the renderer's Content-Security-Policy (its index.html's meta tag) */
const appCsp = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(fs.readFileSync(path.join(desktop, "src/renderer/index.html"), "utf8"))?.[1];
const dataDirs: string[] = [];

/** Runs the built host under the stand-in; `devServer`: as in `electron-vite dev`. */
function runHost(devServer: string): Report {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-host-"));
  dataDirs.push(dataDir);
  const methods = [...Object.keys(contract), "notAMethod"];
  const run = spawnSync(
    process.execPath,
    ["--import", "./test/host/register-stand-in.mjs", "test/host/host-harness.mjs", outDir, JSON.stringify([APP, DEV_SERVER, ...FOREIGN]), JSON.stringify(methods)],
    { cwd: desktop, env: { ...process.env, BONSAI_USER_DATA_DIR: dataDir, ELECTRON_RENDERER_URL: devServer, BONSAI_HOST_IMPORT_FILE: IMPORTED }, encoding: "utf8", timeout: 60_000 },
  );
  if (run.status !== 0) throw new Error(`the host harness failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "") as Report;
}

/** A renderer module (typed by tsconfig.web.json, so imported by address here). */
async function rendererModule<T>(file: string): Promise<T> {
  return (await import(pathToFileURL(path.join(desktop, "src/renderer", file)).href)) as T;
}

let report: Report;
let devReport: Report;

beforeAll(() => {
  if (!built) return;
  report = runHost("");
  devReport = runHost(DEV_SERVER);
}, 120_000);

afterAll(() => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!built)("the desktop host under a recording electron stand-in (run `pnpm build` first)", () => {
  it("opens its window with context isolation, the sandbox and no Node integration, on app://", () => {
    expect(report.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(report.appUrl).toBe(APP);
    expect(report.permissionCheck).toBe(false);
  });

  it.runIf(process.platform === "linux")("gives its window the app icon on Linux (a PNG beside main's bundle)", () => {
    expect(report.icon).toMatch(/\.png$/);
    expect(fs.readFileSync(report.icon!).subarray(1, 4).toString("latin1")).toBe("PNG");
  });

  it("serves the renderer through app:// and nothing outside its folder", () => {
    expect(report.served).toBe(200);
    expect(report.escaped).toBe(404);
  });

  it("the preload exposes exactly the contract's methods, the event subscription and a dropped file's path", () => {
    expect(Object.keys(report.exposed)).toEqual(["bonsai", "bonsaiFiles"]);
    expect(report.exposed.bonsai).toEqual([...Object.keys(contract), "subscribe"].sort());
    expect([...METHOD_NAMES].sort()).toEqual(Object.keys(contract).sort());
    expect(report.exposed.bonsaiFiles).toEqual(["pathForFile"]);
  });

  it("the path of a dropped file comes from Electron's webUtils.getPathForFile", () => {
    expect(report.pathForFile).toEqual({ droppedPath: "/home/me/dropped.jsonl", asked: ["dropped.jsonl"] });
  });

  it("every contract method has a main-side handler, which refuses other senders", () => {
    for (const method of Object.keys(contract)) {
      expect(report.calls[method], method).toMatchObject({ foreign: "unavailable", own: "invalid_payload" });
    }
    expect(report.calls.notAMethod?.own).toBe("unknown_method");
  });

  it("each menu item does what it says: the renderer's command for each, the data folder and the logs opened by the shell, the archive window", () => {
    const byLabel = Object.fromEntries(report.menuSends.map((m) => [m.label, m]));
    const commands = Object.fromEntries(report.menuSends.filter((m) => m.sent.length > 0).map((m) => [m.label, m.sent]));
    expect(commands).toEqual({
      "Import Sessions…": [["menuCommand", { command: "import" }]],
      "Export…": [["menuCommand", { command: "export" }]],
      "Preferences…": [["menuCommand", { command: "preferences" }]],
      "Search Sessions": [["menuCommand", { command: "search" }]],
      "Zoom Tree to Fit": [["menuCommand", { command: "zoomToFit" }]],
      "Zoom to Active Leaf": [["menuCommand", { command: "zoomToLeaf" }]],
    });
    expect(byLabel["Open Data Folder"]?.openedPaths).toEqual([report.paths.userData]);
    expect(byLabel["Show Logs"]?.openedPaths).toEqual([report.paths.logs]);
    expect(fs.readdirSync(report.paths.logs).some((f) => f.endsWith(".log")), "the log folder Show Logs opens holds the log file").toBe(true);
    // when the system cannot open a folder, the window says so
    expect(report.failedFolders).toEqual([
      ["Open Data Folder", [["notification", { level: "error", message: `Could not open ${report.paths.userData}: no application is registered for folders`, sessionId: null }]]],
      ["Show Logs", [["notification", { level: "error", message: `Could not open ${report.paths.logs}: no application is registered for folders`, sessionId: null }]]],
    ]);
    expect(byLabel["Connect to Team Archive…"]?.windowsOpened).toEqual([expect.stringMatching(/#connect-archive$/)]);
    // every item with a click of its own was checked above; the rest are Electron's roles
    const checked = new Set([...Object.keys(commands), "Open Data Folder", "Show Logs", "Connect to Team Archive…"]);
    expect(report.menuSends.map((m) => m.label).filter((l) => !checked.has(l))).toEqual([]);
  });

  it("every menu command reaches a renderer handler that runs the app command it names, or says why it cannot", async () => {
    const { MENU_COMMAND_HANDLERS, MENU_COMMAND_UNAVAILABLE } = await rendererModule<{ MENU_COMMAND_HANDLERS: Record<string, string>; MENU_COMMAND_UNAVAILABLE: Record<string, string> }>("shell/menu-commands.ts");
    const { COMMANDS } = await rendererModule<{ COMMANDS: readonly { id: string }[] }>("features/keyboard/commands.ts");
    expect(MENU_COMMAND_HANDLERS).toEqual({ import: "import", export: "export-jsonl", preferences: "preferences", search: "search", zoomToFit: "fit", zoomToLeaf: "leaf" });
    const commandIds = new Set(COMMANDS.map((c) => c.id));
    for (const [command, id] of Object.entries(MENU_COMMAND_HANDLERS)) {
      expect(commandIds.has(id), `${command} runs ${id}, which is no app command`).toBe(true);
      expect(MENU_COMMAND_UNAVAILABLE[command], command).toMatch(/\S/);
    }
  });

  it("a session file imported with File → Import joins the recent documents, once stored", () => {
    expect(report.dialogImport).toEqual({ ok: true, imported: [[IMPORTED, true]], recentDocuments: [IMPORTED] });
  });

  it("'Connect to Team Archive…' opens a sandboxed window without the app's preload, which stays on the one archive it connects to", () => {
    expect(report.labels).toContain("Connect to Team Archive…");
    expect(report.archiveWindow).toMatchObject({
      loadedUrl: expect.stringMatching(/#connect-archive$/),
      // its own session answers app:// (Electron serves a custom scheme only where it was handled)
      loaded: 200,
      loadedCsp: appCsp,
      webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false },
      partition: "bonsai-archive",
      permissionCheck: false,
      navigation: [
        ["file:///etc/passwd", false],
        ["https://archive.example/?token=t", true],
        ["https://archive.example/x", true],
        ["https://evil.example/", false],
      ],
      mainWindowToArchive: false,
    });
    expect(report.archiveWindow?.webPreferences).not.toHaveProperty("preload");
    expect(report.unhandled).toEqual([]);
  });

  it("the navigation and new-window guards refuse foreign origins", () => {
    expect(report.guards[APP]).toMatchObject({ navigationAllowed: true, windowAllowed: false });
    expect(report.guards[DEV_SERVER]).toMatchObject({ navigationAllowed: false, windowAllowed: false });
    for (const url of FOREIGN) expect(report.guards[url], url).toMatchObject({ navigationAllowed: false, windowAllowed: false });
    expect(report.guards["file:///etc/passwd"]?.openedExternally).toBe(false);
  });

  it("in development, only the dev server's origin is the app's (not a host or port that starts like it)", () => {
    expect(devReport.appUrl).toBe(DEV_SERVER);
    expect(devReport.guards[DEV_SERVER]).toMatchObject({ navigationAllowed: true, windowAllowed: false });
    expect(devReport.guards[APP]?.navigationAllowed).toBe(false);
    for (const url of FOREIGN) expect(devReport.guards[url], url).toMatchObject({ navigationAllowed: false, windowAllowed: false });
  });

  it("in development, IPC calls from a foreign origin are refused", () => {
    const calls = Object.values(devReport.calls);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call.foreign).toBe("unavailable");
    expect(devReport.calls.listSessions?.own).toBe("invalid_payload");
  });

  it("quitting closes the backend before the app exits", () => {
    expect(report.quit.prevented).toBe(true);
    expect(report.quit.exitCode).toBe(0);
    expect(report.quit.backendExit).toBe(0);
  });
});
