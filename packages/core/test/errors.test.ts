/** Bonsai's refusals across a thread boundary: the kind and the name survive, a forged kind does not. */
import { describe, expect, it } from "vitest";
import { BonsaiError, fromWireError, isErrorKind, registerWireErrors, toWireError } from "../src/errors";

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

  it("a registered class comes back as itself, with its kind and its plain fields", () => {
    class TestBusyError extends BonsaiError {
      constructor(
        readonly file: string,
        readonly tries: number,
        readonly ids: readonly string[],
      ) {
        super("busy", `busy: ${file}`);
        this.name = "TestBusyError";
      }
    }
    const sent = toWireError(new TestBusyError("/s.jsonl", 3, ["a", "b"]));
    expect(sent).toEqual({ name: "TestBusyError", message: "busy: /s.jsonl", kind: "busy", fields: { file: "/s.jsonl", tries: 3, ids: ["a", "b"] } });
    // not registered yet: a BonsaiError of the same kind and name
    expect(fromWireError(structuredClone(sent))).not.toBeInstanceOf(TestBusyError);
    registerWireErrors(TestBusyError);
    const back = fromWireError(structuredClone(sent));
    expect(back).toBeInstanceOf(TestBusyError);
    expect(back).toBeInstanceOf(BonsaiError);
    expect(back).toMatchObject({ name: "TestBusyError", message: "busy: /s.jsonl", kind: "busy", file: "/s.jsonl", tries: 3, ids: ["a", "b"] });
    // a Node error's code survives on a plain Error
    const io = fromWireError(structuredClone(toWireError(Object.assign(new Error("no space"), { code: "ENOSPC" }))));
    expect(io).toMatchObject({ message: "no space", code: "ENOSPC" });
  });
});
