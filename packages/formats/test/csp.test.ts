import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cspHash } from "../src/html/page";

describe("cspHash", () => {
  it("is the CSP source of the text's SHA-256 in base64 (every padding length)", () => {
    for (const text of ["", "a", "ab", "abc", "(function(){})();", "é ✓ 🌳"]) {
      expect(cspHash(text)).toBe(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
    }
  });
});
