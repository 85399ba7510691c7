/**
 * Settings at run time: the seed's defaults, overlaid by what the store persisted, overlaid by the
 * host's overrides (CLI flags; not persisted). Updates are validated by core (each message names its
 * field), persisted through the store and announced.
 */
import { DEFAULT_SETTINGS, mergeSettings, validateSettingsPatch, type BonsaiSettings, type SettingsError, type SettingsPatch } from "@bonsai/core";

export class SettingsValidationError extends Error {
  constructor(readonly errors: readonly SettingsError[]) {
    super(errors.map((e) => e.message).join("; "));
    this.name = "SettingsValidationError";
  }
}

export interface SettingsPersistence {
  getSettingsJson(): unknown;
  saveSettingsJson(value: unknown): void;
}

export class SettingsManager {
  #persisted: BonsaiSettings;
  #effective: BonsaiSettings;
  /** problems found in the persisted settings at load (those fields fall back to their defaults) */
  readonly loadErrors: SettingsError[] = [];

  constructor(
    private readonly persistence: SettingsPersistence,
    private readonly overrides: SettingsPatch = {},
    private readonly onChange: (settings: BonsaiSettings) => void = () => undefined,
  ) {
    this.#persisted = this.#load();
    const check = validateSettingsPatch(overrides, this.#persisted);
    if (!check.ok) throw new SettingsValidationError(check.errors);
    this.#effective = mergeSettings(this.#persisted, check.value);
  }

  #load(): BonsaiSettings {
    const stored = this.persistence.getSettingsJson();
    if (stored === undefined || stored === null) return DEFAULT_SETTINGS;
    const whole = validateSettingsPatch(stored);
    if (whole.ok) return mergeSettings(DEFAULT_SETTINGS, whole.value);
    // keep every valid field, drop the invalid ones
    this.loadErrors.push(...whole.errors);
    const bad = new Set(whole.errors.map((e) => e.field));
    const kept: Record<string, unknown> = {};
    if (typeof stored === "object") {
      for (const [section, value] of Object.entries(stored as Record<string, unknown>)) {
        if (bad.has(section)) continue;
        if (value && typeof value === "object" && !Array.isArray(value)) {
          kept[section] = Object.fromEntries(Object.entries(value).filter(([k]) => !bad.has(`${section}.${k}`)));
        } else kept[section] = value;
      }
    }
    const partial = validateSettingsPatch(kept);
    return partial.ok ? mergeSettings(DEFAULT_SETTINGS, partial.value) : DEFAULT_SETTINGS;
  }

  get(): BonsaiSettings {
    return this.#effective;
  }

  /** Validates, persists and applies a partial update; throws SettingsValidationError naming the field. */
  update(patch: unknown): BonsaiSettings {
    const check = validateSettingsPatch(patch, this.#persisted);
    if (!check.ok) throw new SettingsValidationError(check.errors);
    const next = mergeSettings(this.#persisted, check.value);
    this.persistence.saveSettingsJson(next);
    this.#persisted = next;
    this.#effective = mergeSettings(next, this.overrides);
    this.onChange(this.#effective);
    return this.#effective;
  }
}
