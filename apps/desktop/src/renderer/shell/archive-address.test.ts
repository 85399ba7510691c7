import { describe, expect, it } from "vitest";
import { archiveAddress } from "./archive-address";

describe("the address of a team archive's page", () => {
  it("is the archive's origin with the token, whatever path was typed", () => {
    expect(archiveAddress(" https://bonsai.example.com/some/where?x=1 ", " bonsai_ab_cd ")).toEqual({ address: "https://bonsai.example.com/?token=bonsai_ab_cd" });
    expect(archiveAddress("http://127.0.0.1:8470", "bonsai_a_b+/=")).toEqual({ address: "http://127.0.0.1:8470/?token=bonsai_a_b%2B%2F%3D" });
  });

  it("refuses what is not an archive's web address, or no token, in one sentence", () => {
    for (const [url, token] of [
      ["bonsai.example.com", "t"],
      ["file:///etc/passwd", "t"],
      ["javascript:alert(1)", "t"],
      ["https://me:secret@bonsai.example.com", "t"],
      ["https://bonsai.example.com", "  "],
      ["https://bonsai.example.com", "two words"],
    ]) {
      const answer = archiveAddress(url as string, token as string);
      expect("error" in answer, `${url} ${token}`).toBe(true);
      if ("error" in answer) expect(answer.error).toMatch(/^[^\n]+$/);
    }
  });
});
