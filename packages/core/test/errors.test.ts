/** Bonsai's refusals across a thread boundary: the kind and the name survive, a forged kind does not. */
import { describe, expect, it } from "vitest";
import { BonsaiError, fromWireError, isErrorKind, toWireError } from "../src/errors";

describe("errors on the wire", () => {
  it("a BonsaiError comes back with its kind, name and message", () => {
    const err = new BonsaiError("busy", "another Bonsai process is writing this session; try again");
    err.name = "SessionLockedError";
    const wire = toWireError(err);
    expect(wire).toEqual({ name: "SessionLockedError", message: err.message, kind: "busy" });
    // structured clone, as a worker's postMessage does
    const back = fromWireError(structuredClone(wire));
    expect(back).toBeInstanceOf(BonsaiError);
    expect(back).toMatchObject({ name: "SessionLockedError", message: err.message, kind: "busy" });
  });

  it("anything else comes back as a plain Error with its name, also with an unknown kind", () => {
    const plain = fromWireError(toWireError(new RangeError("out of range")));
    expect(plain).not.toBeInstanceOf(BonsaiError);
    expect(plain).toMatchObject({ name: "RangeError", message: "out of range" });
    expect(fromWireError({ name: "X", message: "m", kind: "everything" as never })).not.toBeInstanceOf(BonsaiError);
    expect(toWireError("a string")).toEqual({ name: "Error", message: "a string" });
    expect(isErrorKind("not_found")).toBe(true);
    expect(isErrorKind("internal")).toBe(false);
  });
});
