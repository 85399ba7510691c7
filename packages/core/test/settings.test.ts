import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, mergeSettings, validateSettingsPatch, type SettingsError } from "../src/index";

function errorsOf(patch: unknown): SettingsError[] {
  const r = validateSettingsPatch(patch);
  if (r.ok) throw new Error(`expected errors for ${JSON.stringify(patch)}`);
  return r.errors;
}

describe("settings validation and merging", () => {
  it("accepts a valid partial patch and returns a clean copy", () => {
    const patch = { compaction: { reserveTokens: 8000, remoteEndpoint: "http://127.0.0.1:8080/summarize" }, model: { fallbackModels: ["a", "b"], baseUrl: "https://api.example.com/v1" }, theme: "dark" };
    const r = validateSettingsPatch(patch);
    expect(r).toEqual({ ok: true, value: patch });
    if (r.ok) expect(r.value.model?.fallbackModels).not.toBe(patch.model.fallbackModels);
    expect(validateSettingsPatch({})).toEqual({ ok: true, value: {} });
    expect(validateSettingsPatch({ compaction: { remoteEndpoint: "" }, model: { apiKeyEnv: "" } }).ok).toBe(true);
  });

  it("names the field in every message", () => {
    expect(errorsOf({ compaction: { reserveTokens: -1 } })).toEqual([{ field: "compaction.reserveTokens", message: "compaction.reserveTokens must be a non-negative integer" }]);
    expect(errorsOf({ compaction: { keepRecentTokens: 1.5 } })[0]?.message).toBe("compaction.keepRecentTokens must be a non-negative integer");
    expect(errorsOf({ compaction: { enabled: "yes" } })[0]?.message).toBe("compaction.enabled must be true or false");
    expect(errorsOf({ retry: { maxRetries: "3" } })[0]?.field).toBe("retry.maxRetries");
    expect(errorsOf({ model: { maxOutputTokens: 0 } })[0]?.message).toBe("model.maxOutputTokens must be a positive integer");
    expect(errorsOf({ model: { apiKeyEnv: "MY KEY" } })[0]?.field).toBe("model.apiKeyEnv");
    expect(errorsOf({ model: { fallbackModels: ["ok", ""] } })[0]?.message).toBe("model.fallbackModels must be a list of non-empty strings");
    expect(errorsOf({ theme: "blue" })[0]?.message).toBe('theme must be one of "system", "light", "dark"');
    expect(errorsOf({ sessionDirs: "dir" })[0]?.field).toBe("sessionDirs");
  });

  it("checks URL syntax of remoteEndpoint and baseUrl", () => {
    for (const bad of ["localhost:8080", "ftp://x", "http://", "http://exa mple.com", "http://host:99999/", 5]) {
      expect(errorsOf({ compaction: { remoteEndpoint: bad } })[0]?.field, String(bad)).toBe("compaction.remoteEndpoint");
    }
    for (const good of ["http://localhost:8080", "https://a.b.c/x?y=1#z", "http://[::1]:3000/v1", "http://user:pw@host/"]) {
      expect(validateSettingsPatch({ model: { baseUrl: good } }).ok, good).toBe(true);
    }
  });

  it("rejects non-objects, unknown sections and unknown fields; reports every error at once", () => {
    expect(errorsOf(null)).toEqual([{ field: "", message: "settings must be an object" }]);
    expect(errorsOf([1])[0]?.field).toBe("");
    expect(errorsOf({ compaction: 3 })[0]?.message).toBe("compaction must be an object");
    const errors = errorsOf({ colour: 1, compaction: { reserve: 1, reserveTokens: -5 } });
    expect(errors.map((e) => e.field)).toEqual(["colour", "compaction.reserve", "compaction.reserveTokens"]);
    expect(errors[0]?.message).toBe("colour is not a setting");
  });

  it("budgets must fit the context window (of the patch or the base)", () => {
    expect(errorsOf({ compaction: { reserveTokens: 200000 } })[0]).toEqual({
      field: "compaction.reserveTokens",
      message: "compaction.reserveTokens (200000) must be smaller than model.contextWindow (200000)",
    });
    expect(errorsOf({ model: { contextWindow: 10000 } }).map((e) => e.field)).toEqual(["compaction.reserveTokens", "compaction.keepRecentTokens", "branchSummary.reserveTokens"]);
    expect(validateSettingsPatch({ model: { contextWindow: 0 } }).ok).toBe(true);
    expect(validateSettingsPatch({ model: { contextWindow: 10000 }, compaction: { reserveTokens: 2000, keepRecentTokens: 4000 }, branchSummary: { reserveTokens: 2000 } }).ok).toBe(true);
  });

  it("mergeSettings applies sections field by field without touching the base", () => {
    const merged = mergeSettings(DEFAULT_SETTINGS, { compaction: { reserveTokens: 1 }, sessionDirs: ["/s"], model: { model: "gpt" } });
    expect(merged.compaction).toEqual({ ...DEFAULT_SETTINGS.compaction, reserveTokens: 1 });
    expect(merged.model.model).toBe("gpt");
    expect(merged.model.contextWindow).toBe(200000);
    expect(merged.sessionDirs).toEqual(["/s"]);
    expect(DEFAULT_SETTINGS.compaction.reserveTokens).toBe(16384);
    expect(DEFAULT_SETTINGS.sessionDirs).toEqual([]);
    expect(merged.model.fallbackModels).not.toBe(DEFAULT_SETTINGS.model.fallbackModels);
  });

  it("threshold settings: tokens or percent (not both), within the window; pruning values", () => {
    expect(DEFAULT_SETTINGS.compaction).toMatchObject({ thresholdTokens: 0, thresholdPercent: 0 });
    expect(DEFAULT_SETTINGS.pruning).toEqual({ enabled: true, protectTokens: 40000, minimumSavings: 20000 });
    expect(validateSettingsPatch({ compaction: { thresholdTokens: 150000 }, pruning: { enabled: false, protectTokens: 0, minimumSavings: 5 } }).ok).toBe(true);
    expect(errorsOf({ compaction: { thresholdPercent: 101 } })[0]?.message).toBe("compaction.thresholdPercent must be a whole number from 0 to 100");
    expect(errorsOf({ compaction: { thresholdTokens: 200000 } })[0]?.message).toBe("compaction.thresholdTokens (200000) must be smaller than model.contextWindow (200000)");
    expect(errorsOf({ compaction: { thresholdTokens: 1000, thresholdPercent: 50 } })[0]?.field).toBe("compaction.thresholdPercent");
    const base = mergeSettings(DEFAULT_SETTINGS, { compaction: { thresholdTokens: 1000 } });
    expect(validateSettingsPatch({ compaction: { thresholdPercent: 50 } }, base).ok).toBe(false);
    expect(validateSettingsPatch({ compaction: { thresholdPercent: 50, thresholdTokens: 0 } }, base).ok).toBe(true);
    expect(errorsOf({ pruning: { protectTokens: -1 } })[0]?.field).toBe("pruning.protectTokens");
    expect(mergeSettings(DEFAULT_SETTINGS, { pruning: { minimumSavings: 1 } }).pruning).toEqual({ enabled: true, protectTokens: 40000, minimumSavings: 1 });
  });
});
