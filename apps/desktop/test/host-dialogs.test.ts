/**
 * The desktop app's main-process dialogs (host-dialogs.ts) under Node: the Electron binary is not
 * here, so a recording stand-in plays Electron's `dialog` and the test checks what main asks for
 * and what it hands to the backend (never more than the user chose).
 */
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { confirmationMessage, mainProcessDialogs, type DialogApi, type MessageOptions, type OpenOptions, type SaveOptions } from "../src/main/host-dialogs";

function recordingDialog(answers: { open?: string[] | null; save?: string | null; button?: number }) {
  const asked: { open: OpenOptions[]; save: SaveOptions[]; message: MessageOptions[] } = { open: [], save: [], message: [] };
  const api: DialogApi = {
    showOpenDialog: async (o) => (asked.open.push(o), answers.open ? { canceled: false, filePaths: answers.open } : { canceled: true, filePaths: [] }),
    showSaveDialog: async (o) => (asked.save.push(o), answers.save ? { canceled: false, filePath: answers.save } : { canceled: true }),
    showMessageBox: async (o) => (asked.message.push(o), { response: answers.button ?? 0 }),
  };
  return { api, asked };
}

describe("main-process dialogs", () => {
  it("import: a multi-file open dialog for session files; cancel is null", async () => {
    const picked = recordingDialog({ open: ["/home/u/a.jsonl", "/home/u/b.jsonl"] });
    expect(await mainProcessDialogs(picked.api, "/home/u/Documents").openSessionFiles()).toEqual(["/home/u/a.jsonl", "/home/u/b.jsonl"]);
    expect(picked.asked.open[0]).toMatchObject({ properties: ["openFile", "multiSelections"], filters: [{ extensions: ["jsonl"] }, { extensions: ["*"] }] });
    expect(await mainProcessDialogs(recordingDialog({ open: null }).api, "/d").openSessionFiles()).toBeNull();
  });

  it("export: a save dialog suggesting the file name in Documents, filtered by format", async () => {
    const saved = recordingDialog({ save: "/home/u/out.md" });
    expect(await mainProcessDialogs(saved.api, "/home/u/Documents").saveSessionFile("chat.md", "markdown")).toBe("/home/u/out.md");
    expect(saved.asked.save[0]).toEqual({ title: "Export session (Markdown)", defaultPath: path.join("/home/u/Documents", "chat.md"), filters: [{ name: "Markdown", extensions: ["md"] }] });
    expect(await mainProcessDialogs(recordingDialog({ save: null }).api, "/d").saveSessionFile("chat.jsonl", "jsonl")).toBeNull();
    const page = recordingDialog({ save: "/home/u/chat.html" });
    expect(await mainProcessDialogs(page.api, "/home/u/Documents").saveSessionFile("chat.html", "html")).toBe("/home/u/chat.html");
    expect(page.asked.save[0]).toMatchObject({ title: "Export session (HTML page)", filters: [{ name: "Web page", extensions: ["html"] }] });
  });

  it("folder settings: a folder picker, one folder", async () => {
    const chosen = recordingDialog({ open: ["/home/u/hooks"] });
    expect(await mainProcessDialogs(chosen.api, "/d").chooseFolder("hooksDir")).toBe("/home/u/hooks");
    expect(chosen.asked.open[0]?.properties).toEqual(["openDirectory", "createDirectory"]);
    expect(await mainProcessDialogs(recordingDialog({ open: null }).api, "/d").chooseFolder("sessionDirs")).toBeNull();
  });

  it("a host setting changes only when the user presses Change in main's own message box", async () => {
    const changes = [
      { field: "model.apiKeyEnv", from: "OPENAI_API_KEY", to: "AWS_SECRET_ACCESS_KEY" },
      { field: "model.baseUrl", from: "(empty)", to: "https://example.org/v1" },
    ];
    const declined = recordingDialog({ button: 0 });
    expect(await mainProcessDialogs(declined.api, "/d").confirmSettings(changes)).toBe(false);
    expect(await mainProcessDialogs(recordingDialog({ button: 1 }).api, "/d").confirmSettings(changes)).toBe(true);
    const shown = declined.asked.message[0]!;
    expect(shown).toEqual(confirmationMessage(changes));
    expect(shown.buttons).toEqual(["Cancel", "Change"]);
    expect(shown.cancelId).toBe(0);
    expect(shown.defaultId).toBe(0);
    expect(shown.detail).toContain("model.apiKeyEnv: OPENAI_API_KEY → AWS_SECRET_ACCESS_KEY\n    (the value of that environment variable is sent as the API key)");
    expect(shown.detail).toContain("model.baseUrl: (empty) → https://example.org/v1\n    (the API key and your sessions are sent to it)");
  });
});
