import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "@bonsai/core";
import { settingsPatchSchema } from "@bonsai/ipc";
import { defaultOf, FIELDS, formatField, getField, parseField, patchFor } from "./fields";
import type { FieldSpec } from "./fields";

const spec = (path: string): FieldSpec => FIELDS.find((f) => f.path === path) as FieldSpec;

describe("preference fields", () => {
  it("cover every setting of BonsaiSettings exactly once", () => {
    const leaves: string[] = [];
    for (const [k, v] of Object.entries(DEFAULT_SETTINGS)) {
      if (typeof v === "object" && v !== null && !Array.isArray(v)) for (const sub of Object.keys(v)) leaves.push(`${k}.${sub}`);
      else leaves.push(k);
    }
    expect(FIELDS.map((f) => f.path).sort()).toEqual(leaves.sort());
  });

  it("show the seed's defaults", () => {
    expect(defaultOf("compaction.reserveTokens")).toBe(16384);
    expect(defaultOf("compaction.keepRecentTokens")).toBe(20000);
    expect(defaultOf("compaction.enabled")).toBe(true);
    expect(defaultOf("compaction.autoContinue")).toBe(true);
    expect(defaultOf("branchSummary.enabled")).toBe(false);
    expect(defaultOf("branchSummary.reserveTokens")).toBe(16384);
    expect(getField(DEFAULT_SETTINGS, "compaction.remoteEndpoint")).toBe("");
  });

  it("each has a one-line explanation", () => {
    for (const f of FIELDS) {
      expect(f.help.length).toBeGreaterThan(10);
      expect(f.help).not.toContain("\n");
    }
  });

  it("refuse invalid numbers and accept thousands separators", () => {
    expect(parseField(spec("compaction.reserveTokens"), "16,384")).toEqual({ ok: true, value: 16384 });
    expect(parseField(spec("compaction.reserveTokens"), "-1")).toEqual({ ok: false, message: "must be a whole number" });
    expect(parseField(spec("compaction.reserveTokens"), "1.5")).toMatchObject({ ok: false });
    expect(parseField(spec("compaction.reserveTokens"), "abc")).toMatchObject({ ok: false });
    expect(parseField(spec("model.contextWindow"), "0")).toEqual({ ok: false, message: "must be at least 1" });
    expect(parseField(spec("retry.maxRetries"), "101")).toEqual({ ok: false, message: "must be at most 100" });
  });

  it("refuse non-http URLs and bad variable names", () => {
    expect(parseField(spec("model.baseUrl"), "")).toEqual({ ok: true, value: "" });
    expect(parseField(spec("model.baseUrl"), "http://127.0.0.1:8080/v1")).toEqual({ ok: true, value: "http://127.0.0.1:8080/v1" });
    expect(parseField(spec("model.baseUrl"), "ftp://x")).toMatchObject({ ok: false });
    expect(parseField(spec("compaction.remoteEndpoint"), "not a url")).toMatchObject({ ok: false });
    expect(parseField(spec("model.apiKeyEnv"), "MY_KEY")).toEqual({ ok: true, value: "MY_KEY" });
    expect(parseField(spec("model.apiKeyEnv"), "1KEY")).toMatchObject({ ok: false });
    expect(parseField(spec("theme"), "blue")).toMatchObject({ ok: false });
  });

  it("read lists one item per line", () => {
    expect(parseField(spec("sessionDirs"), " /a \n\n/b\n")).toEqual({ ok: true, value: ["/a", "/b"] });
    expect(formatField(spec("sessionDirs"), ["/a", "/b"])).toBe("/a\n/b");
  });

  it("build patches the contract accepts", () => {
    for (const f of FIELDS) {
      const patch = patchFor(f.path, getField(DEFAULT_SETTINGS, f.path));
      expect(settingsPatchSchema.safeParse(patch).success).toBe(true);
    }
    expect(patchFor("compaction.keepRecentTokens", 5)).toEqual({ compaction: { keepRecentTokens: 5 } });
    expect(patchFor("theme", "dark")).toEqual({ theme: "dark" });
  });
});
