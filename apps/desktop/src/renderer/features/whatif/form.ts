/**
 * The what-if form: the candidate settings as typed text, parsed into core's WhatIfSettings, checked
 * with core's settings validation against the saved settings, and turned into the settings patch
 * Save applies. Pure; tested.
 */
import { mergeSettings, validateSettingsPatch, whatIfSettingsOf, type BonsaiSettings, type SettingsPatch, type WhatIfSettings } from "@bonsai/core";

export type ThresholdMode = "reserve" | "tokens" | "percent";

export interface WhatIfForm {
  compactionEnabled: boolean;
  pruningEnabled: boolean;
  thresholdMode: ThresholdMode;
  /** typed text of the number fields */
  reserveTokens: string;
  keepRecentTokens: string;
  thresholdTokens: string;
  thresholdPercent: string;
  protectTokens: string;
  minimumSavings: string;
  contextWindow: string;
}

export type NumberField = "reserveTokens" | "keepRecentTokens" | "thresholdTokens" | "thresholdPercent" | "protectTokens" | "minimumSavings" | "contextWindow";

/** The form showing the saved settings. */
export function formOf(settings: BonsaiSettings): WhatIfForm {
  const s = whatIfSettingsOf(settings);
  return {
    compactionEnabled: s.compactionEnabled,
    pruningEnabled: s.pruningEnabled,
    thresholdMode: s.thresholdTokens > 0 ? "tokens" : s.thresholdPercent > 0 ? "percent" : "reserve",
    reserveTokens: String(s.reserveTokens),
    keepRecentTokens: String(s.keepRecentTokens),
    thresholdTokens: s.thresholdTokens > 0 ? String(s.thresholdTokens) : String(s.contextWindow - s.reserveTokens),
    thresholdPercent: s.thresholdPercent > 0 ? String(s.thresholdPercent) : "90",
    protectTokens: String(s.protectTokens),
    minimumSavings: String(s.minimumSavings),
    contextWindow: String(s.contextWindow),
  };
}

export type Parsed = { ok: true; patch: SettingsPatch; settings: WhatIfSettings } | { ok: false; errors: Partial<Record<NumberField | "form", string>> };

/** "16,384" -> 16384; anything but digits (and separators) is refused. */
function whole(text: string): number | undefined {
  const t = text.trim().replace(/[_,\s]/gu, "");
  return /^\d+$/u.test(t) ? Number(t) : undefined;
}

const FIELD_OF: Record<string, NumberField> = {
  "compaction.reserveTokens": "reserveTokens",
  "compaction.keepRecentTokens": "keepRecentTokens",
  "compaction.thresholdTokens": "thresholdTokens",
  "compaction.thresholdPercent": "thresholdPercent",
  "pruning.protectTokens": "protectTokens",
  "pruning.minimumSavings": "minimumSavings",
  "model.contextWindow": "contextWindow",
};

/** The candidate settings of a form, or the reason per field why not (core's messages). */
export function parseForm(form: WhatIfForm, saved: BonsaiSettings): Parsed {
  const errors: Partial<Record<NumberField | "form", string>> = {};
  const num = (field: NumberField): number => {
    const v = whole(form[field]);
    if (v === undefined) errors[field] = "must be a whole number";
    return v ?? 0;
  };
  const patch: SettingsPatch = {
    compaction: {
      enabled: form.compactionEnabled,
      reserveTokens: num("reserveTokens"),
      keepRecentTokens: num("keepRecentTokens"),
      thresholdTokens: form.thresholdMode === "tokens" ? num("thresholdTokens") : 0,
      thresholdPercent: form.thresholdMode === "percent" ? num("thresholdPercent") : 0,
    },
    pruning: { enabled: form.pruningEnabled, protectTokens: num("protectTokens"), minimumSavings: num("minimumSavings") },
    model: { contextWindow: num("contextWindow") },
  };
  if (form.thresholdMode === "tokens" && whole(form.thresholdTokens) === 0) errors.thresholdTokens = "must be at least 1";
  if (form.thresholdMode === "percent" && whole(form.thresholdPercent) === 0) errors.thresholdPercent = "must be at least 1";
  if (whole(form.contextWindow) === 0) errors.contextWindow = "must be at least 1";
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const check = validateSettingsPatch(patch, saved);
  if (!check.ok) {
    for (const e of check.errors) errors[FIELD_OF[e.field] ?? "form"] = e.message;
    return { ok: false, errors };
  }
  return { ok: true, patch: check.value, settings: whatIfSettingsOf(mergeSettings(saved, check.value)) };
}

/** Whether the candidate differs from the saved settings (Save has something to apply). */
export function differsFromSaved(settings: WhatIfSettings, saved: BonsaiSettings): boolean {
  const s = whatIfSettingsOf(saved);
  return (Object.keys(settings) as (keyof WhatIfSettings)[]).some((k) => settings[k] !== s[k]);
}
