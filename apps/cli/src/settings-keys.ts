/**
 * Settings by dotted key for `bonsai config`: every leaf of BonsaiSettings ("compaction.reserveTokens",
 * "hooksDir", ...), its value as text, and text (command-line words) turned into a value of the
 * key's type. Validation of the values is core's (validateSettingsPatch), as for every other writer.
 */
import * as path from "node:path";
import { DEFAULT_SETTINGS, type BonsaiSettings, type SettingsPatch } from "@bonsai/core";
import { UsageError } from "./errors";

export type SettingValue = string | number | boolean | string[];

/** Every dotted key, in the order of the defaults. */
export const SETTING_KEYS: readonly string[] = Object.entries(DEFAULT_SETTINGS).flatMap(([section, value]) =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value).map((k) => `${section}.${k}`) : [section],
);

/** Keys whose values are folders: relative paths are made absolute (from the current folder). */
const FOLDER_KEYS = new Set(["hooksDir", "sessionDirs"]);

export function requireKey(key: string): string {
  if (SETTING_KEYS.includes(key)) return key;
  throw new UsageError(`unknown setting ${JSON.stringify(key)} (run \`bonsai config get\` for the list)`);
}

export function settingValue(settings: BonsaiSettings, key: string): SettingValue {
  let v: unknown = settings;
  for (const part of requireKey(key).split(".")) v = (v as Record<string, unknown>)[part];
  return v as SettingValue;
}

/** A value as one line of text ("" for an empty string, lists comma-separated). */
export function formatValue(value: SettingValue): string {
  return Array.isArray(value) ? value.join(", ") : String(value);
}

/** Command-line words as a value of the key's type; a list takes any number of words. */
export function parseValue(key: string, words: readonly string[]): SettingValue {
  const kind = settingValue(DEFAULT_SETTINGS, key);
  if (Array.isArray(kind)) return FOLDER_KEYS.has(key) ? words.map((w) => path.resolve(w)) : [...words];
  if (words.length !== 1) throw new UsageError(`${key} takes one value, got ${words.length}`);
  const word = words[0]!;
  if (typeof kind === "boolean") {
    if (/^(true|on|yes)$/iu.test(word)) return true;
    if (/^(false|off|no)$/iu.test(word)) return false;
    throw new UsageError(`${key} must be true or false, got ${JSON.stringify(word)}`);
  }
  if (typeof kind === "number") {
    if (!/^-?\d+$/u.test(word)) throw new UsageError(`${key} must be a whole number, got ${JSON.stringify(word)}`);
    return Number(word);
  }
  return FOLDER_KEYS.has(key) && word !== "" ? path.resolve(word) : word;
}

/** The settings patch that sets one key. */
export function patchOf(key: string, value: SettingValue): SettingsPatch {
  const [section, field] = requireKey(key).split(".") as [string, string | undefined];
  return (field === undefined ? { [section]: value } : { [section]: { [field]: value } }) as SettingsPatch;
}
