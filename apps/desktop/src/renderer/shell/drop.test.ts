import { describe, expect, it } from "vitest";
import { planDrop, type HostFiles } from "./drop";

const file = (name: string) => new File(["{}\n"], name);
/** the desktop preload: a path for the files the user dropped, "" for one the page made */
const host = (paths: Record<string, string>): HostFiles => ({ pathForFile: (f) => paths[f.name] ?? "" });

describe("planDrop", () => {
  it("imports dropped files and folders in place when the host knows their paths", () => {
    const files = [file("a.jsonl"), file("sessions")];
    expect(planDrop(files, host({ "a.jsonl": "/home/me/a.jsonl", sessions: "/home/me/sessions" }))).toEqual({
      kind: "in-place",
      paths: ["/home/me/a.jsonl", "/home/me/sessions"],
    });
  });

  it("uploads copies in browser mode (no preload)", () => {
    const files = [file("a.jsonl")];
    expect(planDrop(files, undefined)).toEqual({ kind: "upload", files });
  });

  it("uploads copies when a file has no path", () => {
    const files = [file("a.jsonl"), file("made-by-the-page.jsonl")];
    expect(planDrop(files, host({ "a.jsonl": "/home/me/a.jsonl" }))).toEqual({ kind: "upload", files });
  });

  it("plans nothing in place for an empty drop", () => {
    expect(planDrop([], host({}))).toEqual({ kind: "upload", files: [] });
  });
});
