import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, mergeSettings, whatIfSettingsOf } from "@bonsai/core";
import { differsFromSaved, formOf, parseForm } from "./form";

describe("the what-if form", () => {
  it("shows the saved settings and parses back to them (nothing to save)", () => {
    const form = formOf(DEFAULT_SETTINGS);
    expect(form).toMatchObject({ thresholdMode: "reserve", reserveTokens: "16384", thresholdTokens: "183616", contextWindow: "200000" });
    const parsed = parseForm(form, DEFAULT_SETTINGS);
    expect(parsed.ok && parsed.settings).toEqual(whatIfSettingsOf(DEFAULT_SETTINGS));
    expect(parsed.ok && differsFromSaved(parsed.settings, DEFAULT_SETTINGS)).toBe(false);
  });

  it("threshold modes set one form and clear the other; Save's patch is what the backend accepts", () => {
    const parsed = parseForm({ ...formOf(DEFAULT_SETTINGS), thresholdMode: "percent", thresholdPercent: "75", reserveTokens: "20,000" }, DEFAULT_SETTINGS);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.settings).toMatchObject({ thresholdPercent: 75, thresholdTokens: 0, reserveTokens: 20000 });
    expect(parsed.patch.compaction).toMatchObject({ thresholdPercent: 75, thresholdTokens: 0 });
    expect(differsFromSaved(parsed.settings, DEFAULT_SETTINGS)).toBe(true);
    const saved = mergeSettings(DEFAULT_SETTINGS, { compaction: { thresholdTokens: 100000 } });
    expect(formOf(saved).thresholdMode).toBe("tokens");
  });

  it("refuses bad input per field with core's message", () => {
    const base = formOf(DEFAULT_SETTINGS);
    expect(parseForm({ ...base, reserveTokens: "lots" }, DEFAULT_SETTINGS)).toEqual({ ok: false, errors: { reserveTokens: "must be a whole number" } });
    expect(parseForm({ ...base, reserveTokens: "300000" }, DEFAULT_SETTINGS)).toEqual({ ok: false, errors: { reserveTokens: "compaction.reserveTokens (300000) must be smaller than model.contextWindow (200000)" } });
    expect(parseForm({ ...base, thresholdMode: "percent", thresholdPercent: "150" }, DEFAULT_SETTINGS)).toMatchObject({ ok: false, errors: { thresholdPercent: expect.stringMatching(/0 to 100/) } });
    expect(parseForm({ ...base, contextWindow: "0" }, DEFAULT_SETTINGS)).toMatchObject({ ok: false, errors: { contextWindow: "must be at least 1" } });
  });
});
