/**
 * Every setting the preferences pane shows: where it lives, its seed default, unit, a one-line
 * explanation and how typed text becomes a value (invalid input is refused inline). Pure; tested.
 */
import { DEFAULT_SETTINGS } from "@bonsai/core";
import type { BonsaiSettings } from "@bonsai/core";
import type { SettingsPatch } from "@bonsai/ipc";

export type FieldKind = "bool" | "int" | "text" | "url" | "env" | "list" | "theme";

export interface FieldSpec {
  /** "compaction.reserveTokens" */
  path: string;
  label: string;
  kind: FieldKind;
  unit?: string;
  help: string;
  min?: number;
  max?: number;
  group: string;
}

export const FIELDS: readonly FieldSpec[] = [
  { group: "Compaction", path: "compaction.enabled", label: "Automatic compaction", kind: "bool", help: "Compact (and prune first) when the context nears the window; manual compaction always works." },
  { group: "Compaction", path: "compaction.reserveTokens", label: "Reserve", kind: "int", unit: "tokens", min: 0, max: 10_000_000, help: "Kept free for the reply: compaction triggers above window − reserve; also sizes the summaries (0.8×, 0.5×, 0.2×)." },
  { group: "Compaction", path: "compaction.keepRecentTokens", label: "Keep recent", kind: "int", unit: "tokens", min: 0, max: 10_000_000, help: "Recent history kept verbatim after a compaction (estimated tokens)." },
  { group: "Compaction", path: "compaction.thresholdTokens", label: "Threshold", kind: "int", unit: "tokens", min: 0, max: 100_000_000, help: "Compact above this many tokens instead of window − reserve; 0 = window − reserve." },
  { group: "Compaction", path: "compaction.thresholdPercent", label: "Threshold (percent)", kind: "int", unit: "% of the window", min: 0, max: 100, help: "Compact above this share of the context window; 0 = off (set this or Threshold, not both)." },
  { group: "Compaction", path: "compaction.autoContinue", label: "Continue after compaction", kind: "bool", help: "After a threshold compaction, send “Continue if you have next steps.”" },
  { group: "Compaction", path: "compaction.remoteEndpoint", label: "Remote summarizer", kind: "url", help: "POST {systemPrompt, prompt} to this URL and use its {summary} instead of the model; empty = off." },
  { group: "Pruning", path: "pruning.enabled", label: "Prune old tool output", kind: "bool", help: "Before each automatic compaction check, replace old large tool outputs by a notice (originals are kept and restorable)." },
  { group: "Pruning", path: "pruning.protectTokens", label: "Protect newest", kind: "int", unit: "tokens", min: 0, max: 100_000_000, help: "The newest tool output of this many tokens is never pruned." },
  { group: "Pruning", path: "pruning.minimumSavings", label: "Prune at least", kind: "int", unit: "tokens", min: 0, max: 100_000_000, help: "Prune only when it saves at least this many tokens." },
  { group: "Branch summaries", path: "branchSummary.enabled", label: "Summarize abandoned branches", kind: "bool", help: "Default answer of “summarize the abandoned branch?” when switching branches." },
  { group: "Branch summaries", path: "branchSummary.reserveTokens", label: "Reserve", kind: "int", unit: "tokens", min: 0, max: 10_000_000, help: "The branch summary reads up to context window − reserve tokens of the abandoned branch." },
  { group: "Retries", path: "retry.enabled", label: "Retry auto-compaction", kind: "bool", help: "Retry a failed automatic compaction on transient errors (rate limits, server errors)." },
  { group: "Retries", path: "retry.maxRetries", label: "Attempts", kind: "int", unit: "retries", min: 0, max: 100, help: "How many times a transient failure is retried." },
  { group: "Retries", path: "retry.baseDelayMs", label: "First delay", kind: "int", unit: "ms", min: 0, max: 3_600_000, help: "Delay before the first retry; it doubles with each further attempt." },
  { group: "Model provider", path: "model.baseUrl", label: "Base URL", kind: "url", help: "OpenAI-compatible endpoint (…/v1); empty = no model: Bonsai's offline summarizer is used." },
  { group: "Model provider", path: "model.model", label: "Model", kind: "text", max: 200, help: "Model id sent to the endpoint for summaries and prompts." },
  { group: "Model provider", path: "model.fallbackModels", label: "Fallback models", kind: "list", help: "Further model ids tried in order when the first fails (one per line)." },
  { group: "Model provider", path: "model.contextWindow", label: "Context window", kind: "int", unit: "tokens", min: 1, max: 100_000_000, help: "The configured model's context size, and the window of a session whose model Bonsai does not know; thresholds and budgets are computed from it." },
  {
    group: "Model provider",
    path: "model.contextWindowOverrides",
    label: "Context window per model",
    kind: "list",
    help: 'A session is judged against the window of the model it records (a table of known models). One "model pattern=tokens" per line overrides it, * a wildcard, the first match wins: claude-sonnet-4*=1000000.',
  },
  { group: "Model provider", path: "model.maxOutputTokens", label: "Max output", kind: "int", unit: "tokens", min: 1, max: 10_000_000, help: "Upper bound on a reply's length in a prompt turn." },
  { group: "Model provider", path: "model.apiKeyEnv", label: "API key variable", kind: "env", help: "Environment variable read for the key when none is stored in the keychain." },
  { group: "Folders", path: "hooksDir", label: "Hooks folder", kind: "text", max: 4096, help: "Folder of hook modules (session_before_compact, …); empty = the data folder's hooks/." },
  { group: "Folders", path: "sessionDirs", label: "Watched session folders", kind: "list", help: "Extra folders imported and watched besides ~/.pi and ~/.omp session folders (one per line)." },
  {
    group: "Team archive",
    path: "team.redactPatterns",
    label: "Also redact",
    kind: "list",
    help: "Regular expressions redacted from a session before it is pushed to a team archive, besides the built-in rules for keys, tokens, private keys, URL passwords and .env lines (one per line).",
  },
  { group: "Appearance", path: "theme", label: "Theme", kind: "theme", help: "Light, dark, or follow the system." },
];

export type FieldValue = boolean | number | string | string[];

export function getField(settings: BonsaiSettings, path: string): FieldValue {
  let v: unknown = settings;
  for (const part of path.split(".")) v = (v as Record<string, unknown>)[part];
  return v as FieldValue;
}

export function defaultOf(path: string): FieldValue {
  return getField(DEFAULT_SETTINGS, path);
}

/** Text shown in an input for a value. */
export function formatField(spec: FieldSpec, value: FieldValue): string {
  if (spec.kind === "list") return (value as string[]).join("\n");
  return String(value);
}

export type Parsed = { ok: true; value: FieldValue } | { ok: false; message: string };

/** Typed text -> value, or the reason it is refused. */
export function parseField(spec: FieldSpec, raw: string | boolean): Parsed {
  switch (spec.kind) {
    case "bool":
      return typeof raw === "boolean" ? { ok: true, value: raw } : { ok: false, message: "must be on or off" };
    case "int": {
      const text = String(raw).trim().replace(/[_,\s]/gu, "");
      if (!/^\d+$/u.test(text)) return { ok: false, message: "must be a whole number" };
      const n = Number(text);
      if (spec.min !== undefined && n < spec.min) return { ok: false, message: `must be at least ${spec.min}` };
      if (spec.max !== undefined && n > spec.max) return { ok: false, message: `must be at most ${spec.max}` };
      return { ok: true, value: n };
    }
    case "url": {
      const text = String(raw).trim();
      if (text === "") return { ok: true, value: "" };
      try {
        const u = new URL(text);
        if (u.protocol !== "http:" && u.protocol !== "https:") return { ok: false, message: "must be an http(s) URL" };
      } catch {
        return { ok: false, message: "must be an http(s) URL" };
      }
      if (/\s/u.test(text)) return { ok: false, message: "must be an http(s) URL" };
      return { ok: true, value: text };
    }
    case "env": {
      const text = String(raw).trim();
      return /^[A-Za-z_][A-Za-z0-9_]*$/u.test(text) ? { ok: true, value: text } : { ok: false, message: "must be an environment variable name (letters, digits, _)" };
    }
    case "text": {
      const text = String(raw).trim();
      if (spec.max !== undefined && text.length > spec.max) return { ok: false, message: `must be at most ${spec.max} characters` };
      return { ok: true, value: text };
    }
    case "list": {
      const items = String(raw)
        .split("\n")
        .map((s) => s.trim())
        .filter((s) => s !== "");
      return { ok: true, value: items };
    }
    case "theme": {
      const text = String(raw);
      return text === "system" || text === "light" || text === "dark" ? { ok: true, value: text } : { ok: false, message: "must be system, light or dark" };
    }
  }
}

/** The settings patch that sets one field. */
export function patchFor(path: string, value: FieldValue): SettingsPatch {
  const parts = path.split(".");
  if (parts.length === 1) return { [parts[0] as string]: value } as SettingsPatch;
  return { [parts[0] as string]: { [parts[1] as string]: value } } as SettingsPatch;
}
