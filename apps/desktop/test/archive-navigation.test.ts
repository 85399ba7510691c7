import { describe, expect, it } from "vitest";
import { archiveNavigation } from "../src/main/archive-navigation";

describe("where a team-archive window may go", () => {
  it("goes from the connect page to one web archive, then stays on its origin", () => {
    const first = archiveNavigation(null, "https://bonsai.example.com/?token=t");
    expect(first).toEqual({ allow: true, archive: "https://bonsai.example.com" });
    expect(archiveNavigation(first.archive, "https://bonsai.example.com/download/x")).toEqual({ allow: true, archive: "https://bonsai.example.com" });
    expect(archiveNavigation(first.archive, "https://evil.example/")).toEqual({ allow: false, archive: "https://bonsai.example.com" });
    expect(archiveNavigation(first.archive, "https://bonsai.example.com.evil.example/").allow).toBe(false);
    expect(archiveNavigation(first.archive, "http://bonsai.example.com/").allow).toBe(false);
  });

  it("never goes to a file, a script or anything but http(s)", () => {
    for (const url of ["file:///etc/passwd", "javascript:alert(1)", "data:text/html,x", "not a url"]) expect(archiveNavigation(null, url).allow).toBe(false);
  });
});
