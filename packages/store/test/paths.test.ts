import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultDataDir, defaultDbPath, defaultSessionDirs } from "../src/index";

describe("data folder and session folders", () => {
  it("matches Electron's userData for the app name Bonsai on each platform", () => {
    expect(defaultDataDir({}, "linux", "/home/ann")).toBe("/home/ann/.config/Bonsai");
    expect(defaultDataDir({ XDG_CONFIG_HOME: "/xdg" }, "linux", "/home/ann")).toBe("/xdg/Bonsai");
    expect(defaultDataDir({}, "darwin", "/Users/ann")).toBe("/Users/ann/Library/Application Support/Bonsai");
    expect(defaultDataDir({ APPDATA: "C:\\Users\\ann\\AppData\\Roaming" }, "win32", "C:\\Users\\ann")).toBe("C:\\Users\\ann\\AppData\\Roaming\\Bonsai");
  });

  it("puts bonsai.db in the data folder unless BONSAI_DB says otherwise", () => {
    expect(defaultDbPath({}, "linux", "/home/ann")).toBe("/home/ann/.config/Bonsai/bonsai.db");
    expect(defaultDbPath({ BONSAI_DB: "/tmp/x/my.db" }, "linux", "/home/ann")).toBe(path.resolve("/tmp/x/my.db"));
    expect(defaultDbPath({ BONSAI_DB: "  " }, "linux", "/home/ann")).toBe("/home/ann/.config/Bonsai/bonsai.db");
  });

  it("scans the agents' folders, then BONSAI_SESSIONS_DIRS, then the settings, without duplicates", () => {
    const dirs = defaultSessionDirs(["/extra/b", "~/notes", "/extra/a"], { BONSAI_SESSIONS_DIRS: ["/extra/a", "", "/env/c"].join(path.delimiter) }, "/home/ann");
    expect(dirs).toEqual([
      "/home/ann/.pi/agent/sessions",
      "/home/ann/.omp/agent/sessions",
      "/extra/a",
      "/env/c",
      "/extra/b",
      "/home/ann/notes",
    ]);
  });
});
