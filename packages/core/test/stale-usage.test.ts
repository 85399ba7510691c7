/** Bonsai deviations 2 and 3: a message not newer than the latest compaction on its path is stale. */
import { describe, expect, it } from "vitest";
import { isOlderThanLatestCompaction } from "../src/tokens";
import { A, BASE_TIME, SessionBuilder, U } from "./builders";

/** e0 user, e1 assistant, e2 compaction (kept from e0), e3 user, e4 compaction (kept from e3): 1 s apart */
function twoCompactions() {
  const b = new SessionBuilder().msg(U(10)).msg(A(10));
  b.compaction("first", b.id(0));
  b.msg(U(10));
  b.compaction("second", b.id(3));
  return b.entries;
}
const at = (seconds: number) => ({ timestamp: BASE_TIME + seconds * 1000 });

describe("isOlderThanLatestCompaction", () => {
  it("is false on a path without a compaction", () => {
    const entries = new SessionBuilder().msg(U(10)).msg(A(10)).entries;
    expect(isOlderThanLatestCompaction(at(0), entries)).toBe(false);
  });

  it("judges against the latest compaction, not the oldest (deviation 3)", () => {
    const entries = twoCompactions();
    // newer than the first compaction (2 s) but not than the second (4 s)
    expect(isOlderThanLatestCompaction(at(3), entries)).toBe(true);
    expect(isOlderThanLatestCompaction(at(4), entries)).toBe(true); // the same instant is not newer
    expect(isOlderThanLatestCompaction(at(5), entries)).toBe(false);
  });

  it("treats a compaction whose timestamp cannot be read as no evidence of staleness", () => {
    const b = new SessionBuilder().msg(U(10));
    b.compaction("odd", b.id(0), { timestamp: "sometime" });
    expect(isOlderThanLatestCompaction(at(-100), b.entries)).toBe(false);
  });
});
