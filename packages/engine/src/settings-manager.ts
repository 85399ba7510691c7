/**
 * Settings at run time: the seed's defaults, overlaid by what the store persisted, overlaid by the
 * host's overrides (CLI flags; not persisted). Updates are validated by core (each message names its
 * field), persisted through the store and announced.
 */
import { BonsaiError, loadSettings, mergeSettings, validateSettingsPatch, type BonsaiSettings, type SettingsError, type SettingsPatch } from "@bonsai/core";

/** A settings change that does not validate; `errors` names each field. */
export class SettingsValidationError extends BonsaiError {
  constructor(readonly errors: readonly SettingsError[]) {
    super("invalid", errors.map((e) => e.message).join("; "));
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
  /** problems found in the persisted settings at the last load (those fields fall back to their defaults) */
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
    this.loadErrors.length = 0;
    // keep every valid field, drop the invalid ones
    const { settings, errors } = loadSettings(this.persistence.getSettingsJson());
    this.loadErrors.push(...errors);
    return settings;
  }

  get(): BonsaiSettings {
    return this.#effective;
  }

  /**
   * Reads the persisted settings again: another process (`bonsai config set`) may have changed them.
   * Announces the new settings when they differ.
   */
  reload(): BonsaiSettings {
    const persisted = this.#load();
    if (JSON.stringify(persisted) === JSON.stringify(this.#persisted)) return this.#effective;
    this.#persisted = persisted;
    this.#effective = mergeSettings(persisted, this.overrides);
    this.onChange(this.#effective);
    return this.#effective;
  }

  /**
   * Validates, persists and applies a partial update; throws SettingsValidationError naming the field.
   * The update goes onto what is persisted now, so a change made meanwhile by another process is kept.
   */
  update(patch: unknown): BonsaiSettings {
    this.#persisted = this.#load();
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
