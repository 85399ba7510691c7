import { describe, expect, it } from "vitest";
import type { SkeletonNode } from "@bonsai/core";
import { toFlow } from "../tree/layout";
import { indexTree } from "../tree/model";
import { isActivatable, isTyping, step } from "./navigate";

const n = (id: string, parentId: string | null): SkeletonNode => ({ id, parentId, type: "message", role: "user", timestamp: "", tokens: 1, preview: id });

// a - b - c (leaf)
//      \- x - y
const nodes = [n("a", null), n("b", "a"), n("x", "b"), n("c", "b"), n("y", "x")];
const graph = toFlow(indexTree(nodes), { leafId: "c" });

describe("keyboard step", () => {
  it("starts at the active leaf when nothing is selected", () => {
    expect(step(graph, null, "down")).toBe("c");
  });

  it("moves up to the parent and stops at the root", () => {
    expect(step(graph, "c", "up")).toBe("b");
    expect(step(graph, "a", "up")).toBeNull();
  });

  it("moves down along the active path first", () => {
    expect(step(graph, "b", "down")).toBe("c");
    expect(step(graph, "x", "down")).toBe("y");
    expect(step(graph, "y", "down")).toBeNull();
  });

  it("moves between siblings in order", () => {
    expect(step(graph, "x", "right")).toBe("c");
    expect(step(graph, "c", "left")).toBe("x");
    expect(step(graph, "c", "right")).toBeNull();
  });
});

describe("isTyping", () => {
  it("recognises text fields", () => {
    expect(isTyping({ tagName: "INPUT" } as unknown as EventTarget)).toBe(true);
    expect(isTyping({ tagName: "TEXTAREA" } as unknown as EventTarget)).toBe(true);
    expect(isTyping({ tagName: "DIV", isContentEditable: true } as unknown as EventTarget)).toBe(true);
    expect(isTyping({ tagName: "DIV" } as unknown as EventTarget)).toBe(false);
    expect(isTyping(null)).toBe(false);
  });
});

describe("isActivatable", () => {
  it("recognises controls Enter activates", () => {
    expect(isActivatable({ tagName: "BUTTON" } as unknown as EventTarget)).toBe(true);
    expect(isActivatable({ tagName: "A" } as unknown as EventTarget)).toBe(true);
    expect(isActivatable({ tagName: "DIV" } as unknown as EventTarget)).toBe(false);
    expect(isActivatable(null)).toBe(false);
  });
});
