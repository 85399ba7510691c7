/**
 * Bonsai settings: the seed's compaction and branch-summary settings plus model provider settings.
 * Defaults and validation are pure; the store persists them and the engine consumes them.
 * (Implementation of validateSettingsPatch lives with the rest of core's settings logic.)
 */
import { parseContextWindowOverride } from "./model-window";
import { DEFAULT_SETTINGS } from "./defaults";

// defined with the other defaults (defaults.ts: what the command line loads for its help)
export { DEFAULT_SETTINGS };

export interface CompactionSettings {
  /** gates automatic compaction and pruning; manual compaction ignores it */
  enabled: boolean;
  /** tokens kept free for the reply: threshold margin and summary maxTokens (0.8R / 0.5R / min(512, 0.2R)) */
  reserveTokens: number;
  /** estimated tokens of recent history kept verbatim */
  keepRecentTokens: number;
  /** after a threshold compaction send "Continue if you have next steps." */
  autoContinue: boolean;
  /** POST {systemPrompt, prompt} -> {summary} instead of calling the model; "" = unset */
  remoteEndpoint: string;
  /** compact when the context exceeds this many tokens, instead of contextWindow - reserveTokens; 0 = unset */
  thresholdTokens: number;
  /** compact when the context exceeds this percentage of the context window; 0 = unset (at most one of the two is set) */
  thresholdPercent: number;
}

/** Tool-output pruning before each automatic compaction check (pruning.md; the reference's constants as defaults). */
export interface PruningSettings {
  /** prune old tool outputs (only while automatic compaction is on); manual pruning always works */
  enabled: boolean;
  /** the newest tool-output tokens that are never pruned */
  protectTokens: number;
  /** prune only when at least this many tokens are saved */
  minimumSavings: number;
}

export interface BranchSummarySettings {
  /** default answer of "summarize the abandoned branch?" */
  enabled: boolean;
  /** budget = contextWindow - reserveTokens */
  reserveTokens: number;
}

export interface RetrySettings {
  enabled: boolean;
  maxRetries: number;
  baseDelayMs: number;
}

export interface ModelSettings {
  /** "" = no model configured: the offline summarizer is used */
  baseUrl: string;
  /** model id sent to the endpoint */
  model: string;
  /** further model ids tried in order when the first fails (compaction candidates) */
  fallbackModels: string[];
  /** the window for a model the session records that no known family or override gives one for */
  contextWindow: number;
  /** "model pattern=tokens" lines (`*` a wildcard): a session on a matching model is judged against that window (model-window.ts) */
  contextWindowOverrides: string[];
  maxOutputTokens: number;
  /** name of the environment variable holding the API key (the key itself never lives in settings) */
  apiKeyEnv: string;
}

export interface TeamSettings {
  /** regular expressions redacted from a session before `bonsai push` sends it, besides the built-in rules (docs/TEAM.md) */
  redactPatterns: string[];
}

export interface BonsaiSettings {
  compaction: CompactionSettings;
  pruning: PruningSettings;
  branchSummary: BranchSummarySettings;
  retry: RetrySettings;
  model: ModelSettings;
  /** folder of user hook modules ("" = <data dir>/hooks) */
  hooksDir: string;
  /** extra session folders to import and watch, besides ~/.pi/agent/sessions and ~/.omp/agent/sessions */
  sessionDirs: string[];
  /** UI theme */
  theme: "system" | "light" | "dark";
  team: TeamSettings;
}

// ---------------------------------------------------------------- validation and merging

/** A partial update of BonsaiSettings: any subset of sections and of the fields inside them. */
export type SettingsPatch = {
  [K in keyof BonsaiSettings]?: BonsaiSettings[K] extends unknown[] ? BonsaiSettings[K] : BonsaiSettings[K] extends object ? Partial<BonsaiSettings[K]> : BonsaiSettings[K];
};

export interface SettingsError {
  /** dotted path of the offending field, e.g. "compaction.reserveTokens" ("" for the patch itself) */
  field: string;
  message: string;
}

export type SettingsValidation = { ok: true; value: SettingsPatch } | { ok: false; errors: SettingsError[] };

type Check = (value: unknown, field: string) => string | undefined;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const boolean: Check = (v, f) => (typeof v === "boolean" ? undefined : `${f} must be true or false`);
const nonNegativeInteger: Check = (v, f) =>
  Number.isSafeInteger(v) && (v as number) >= 0 ? undefined : `${f} must be a non-negative integer`;
const positiveInteger: Check = (v, f) => (Number.isSafeInteger(v) && (v as number) >= 1 ? undefined : `${f} must be a positive integer`);
const percent: Check = (v, f) => (Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= 100 ? undefined : `${f} must be a whole number from 0 to 100`);
const anyString: Check = (v, f) => (typeof v === "string" ? undefined : `${f} must be a string`);

const HTTP_URL = /^https?:\/\/(?:[^\s/?#@]+@)?(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?(?:[/?#]\S*)?$/;

/** "" (unset) or an absolute http(s) URL. */
const optionalUrl: Check = (v, f) => {
  if (typeof v !== "string") return `${f} must be a string (an http(s) URL, or empty)`;
  if (v === "") return undefined;
  const match = HTTP_URL.exec(v);
  if (!match || (match[1] !== undefined && Number(match[1]) > 65535)) return `${f} must be an http:// or https:// URL (got ${JSON.stringify(v)})`;
  return undefined;
};

const envVarName: Check = (v, f) =>
  typeof v === "string" && (v === "" || /^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) ? undefined : `${f} must be an environment variable name (letters, digits, _)`;

const windowOverrides: Check = (v, f) => {
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) return `${f} must be a list of "model pattern=tokens" lines`;
  for (const line of v as string[]) {
    const parsed = parseContextWindowOverride(line);
    if (typeof parsed === "string") return `${f}: ${parsed}`;
  }
  return undefined;
};
const nonEmptyStrings: Check = (v, f) =>
  Array.isArray(v) && v.every((s) => typeof s === "string" && s.trim() !== "") ? undefined : `${f} must be a list of non-empty strings`;

const regexList: Check = (v, f) => {
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || x === "")) return `${f} must be a list of regular expressions`;
  for (const source of v as string[]) {
    try {
      new RegExp(source, "g");
    } catch (error) {
      return `${f}: ${JSON.stringify(source)} is not a regular expression (${(error as Error).message})`;
    }
  }
  return undefined;
};

const oneOf =
  (...allowed: string[]): Check =>
  (v, f) =>
    typeof v === "string" && allowed.includes(v) ? undefined : `${f} must be one of ${allowed.map((a) => `"${a}"`).join(", ")}`;

const SECTION_CHECKS: { [K in keyof BonsaiSettings]: BonsaiSettings[K] extends unknown[] ? Check : BonsaiSettings[K] extends object ? Record<keyof BonsaiSettings[K], Check> : Check } = {
  compaction: {
    enabled: boolean,
    reserveTokens: nonNegativeInteger,
    keepRecentTokens: nonNegativeInteger,
    autoContinue: boolean,
    remoteEndpoint: optionalUrl,
    thresholdTokens: nonNegativeInteger,
    thresholdPercent: percent,
  },
  pruning: { enabled: boolean, protectTokens: nonNegativeInteger, minimumSavings: nonNegativeInteger },
  branchSummary: { enabled: boolean, reserveTokens: nonNegativeInteger },
  retry: { enabled: boolean, maxRetries: nonNegativeInteger, baseDelayMs: nonNegativeInteger },
  model: {
    baseUrl: optionalUrl,
    model: anyString,
    fallbackModels: nonEmptyStrings,
    contextWindow: nonNegativeInteger,
    contextWindowOverrides: windowOverrides,
    maxOutputTokens: positiveInteger,
    apiKeyEnv: envVarName,
  },
  hooksDir: anyString,
  sessionDirs: nonEmptyStrings,
  theme: oneOf("system", "light", "dark"),
  team: { redactPatterns: regexList },
};

/** Cross-field sanity on the merged result: budgets that cannot fit the context window. */
function crossFieldErrors(s: BonsaiSettings, patch: SettingsPatch): SettingsError[] {
  const errors: SettingsError[] = [];
  const window = s.model.contextWindow;
  const touched = (section: keyof SettingsPatch, key: string): boolean =>
    (isPlainObject(patch[section]) && key in (patch[section] as object)) || (isPlainObject(patch.model) && "contextWindow" in patch.model);
  if (s.compaction.thresholdTokens > 0 && s.compaction.thresholdPercent > 0 && (touched("compaction", "thresholdTokens") || touched("compaction", "thresholdPercent"))) {
    errors.push({ field: "compaction.thresholdPercent", message: "compaction.thresholdTokens and compaction.thresholdPercent cannot both be set (set one of them to 0)" });
  }
  const tooBig = (section: "compaction" | "branchSummary", key: "reserveTokens" | "keepRecentTokens" | "thresholdTokens", value: number): void => {
    if (value >= window && touched(section, key)) {
      errors.push({ field: `${section}.${key}`, message: `${section}.${key} (${value}) must be smaller than model.contextWindow (${window})` });
    }
  };
  if (window <= 0) return errors;
  tooBig("compaction", "reserveTokens", s.compaction.reserveTokens);
  tooBig("compaction", "keepRecentTokens", s.compaction.keepRecentTokens);
  tooBig("compaction", "thresholdTokens", s.compaction.thresholdTokens);
  tooBig("branchSummary", "reserveTokens", s.branchSummary.reserveTokens);
  return errors;
}

/**
 * Validates a settings update from outside (IPC, CLI, a settings file). Every field is checked
 * against its type and range; unknown sections and fields are errors; each message names its field.
 * Budget fields are also checked against `model.contextWindow` of `base` merged with the patch.
 */
export function validateSettingsPatch(patch: unknown, base: BonsaiSettings = DEFAULT_SETTINGS): SettingsValidation {
  if (!isPlainObject(patch)) return { ok: false, errors: [{ field: "", message: "settings must be an object" }] };
  const errors: SettingsError[] = [];
  const value: Record<string, unknown> = {};
  for (const [section, sectionValue] of Object.entries(patch)) {
    const checks = (SECTION_CHECKS as Record<string, Check | Record<string, Check>>)[section];
    if (checks === undefined) {
      errors.push({ field: section, message: `${section} is not a setting` });
    } else if (typeof checks === "function") {
      const message = checks(sectionValue, section);
      if (message) errors.push({ field: section, message });
      else value[section] = Array.isArray(sectionValue) ? [...sectionValue] : sectionValue;
    } else if (!isPlainObject(sectionValue)) {
      errors.push({ field: section, message: `${section} must be an object` });
    } else {
      const out: Record<string, unknown> = {};
      for (const [key, fieldValue] of Object.entries(sectionValue)) {
        const field = `${section}.${key}`;
        const check = checks[key];
        const message = check ? check(fieldValue, field) : `${field} is not a setting`;
        if (message) errors.push({ field, message });
        else out[key] = Array.isArray(fieldValue) ? [...fieldValue] : fieldValue;
      }
      value[section] = out;
    }
  }
  if (errors.length === 0) errors.push(...crossFieldErrors(mergeSettings(base, value as SettingsPatch), value as SettingsPatch));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: value as SettingsPatch };
}

/** base with the patch applied section by section (a new object; arrays are replaced, not merged). */
export function mergeSettings(base: BonsaiSettings, patch: SettingsPatch): BonsaiSettings {
  return {
    compaction: { ...base.compaction, ...patch.compaction },
    pruning: { ...base.pruning, ...patch.pruning },
    branchSummary: { ...base.branchSummary, ...patch.branchSummary },
    retry: { ...base.retry, ...patch.retry },
    model: { ...base.model, ...patch.model, fallbackModels: [...(patch.model?.fallbackModels ?? base.model.fallbackModels)] },
    hooksDir: patch.hooksDir ?? base.hooksDir,
    sessionDirs: [...(patch.sessionDirs ?? base.sessionDirs)],
    theme: patch.theme ?? base.theme,
    team: { ...base.team, ...patch.team, redactPatterns: [...(patch.team?.redactPatterns ?? base.team.redactPatterns)] },
  };
}

/**
 * Settings saved earlier (a settings file, the database) over the defaults. Every valid field is
 * kept; an invalid one falls back to its default and is reported in `errors`.
 */
export function loadSettings(saved: unknown): { settings: BonsaiSettings; errors: SettingsError[] } {
  if (saved === undefined || saved === null) return { settings: DEFAULT_SETTINGS, errors: [] };
  const whole = validateSettingsPatch(saved);
  if (whole.ok) return { settings: mergeSettings(DEFAULT_SETTINGS, whole.value), errors: [] };
  const bad = new Set(whole.errors.map((e) => e.field));
  const kept: Record<string, unknown> = {};
  if (isPlainObject(saved)) {
    for (const [section, value] of Object.entries(saved)) {
      if (bad.has(section)) continue;
      kept[section] = isPlainObject(value) ? Object.fromEntries(Object.entries(value).filter(([k]) => !bad.has(`${section}.${k}`))) : value;
    }
  }
  const partial = validateSettingsPatch(kept);
  return { settings: partial.ok ? mergeSettings(DEFAULT_SETTINGS, partial.value) : DEFAULT_SETTINGS, errors: whole.errors };
}
