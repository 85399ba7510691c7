import { describe, expect, it } from "vitest";
import { instructionsWithIdentifiers } from "./summary-check";

describe("instructionsWithIdentifiers", () => {
  it("adds one line; running again merges into it", () => {
    const once = instructionsWithIdentifiers("Focus on the parser.", ["parseRetryAfter", "src/retry.ts"]);
    expect(once).toBe("Focus on the parser.\nKeep these identifiers verbatim in the summary: parseRetryAfter, src/retry.ts.");
    expect(instructionsWithIdentifiers(once, ["TS2345", "parseRetryAfter"])).toBe("Focus on the parser.\nKeep these identifiers verbatim in the summary: parseRetryAfter, src/retry.ts, TS2345.");
    expect(instructionsWithIdentifiers("", ["a_b_c"])).toBe("Keep these identifiers verbatim in the summary: a_b_c.");
  });
});
