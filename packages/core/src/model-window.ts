/**
 * The context window a session is judged against, from the model recorded in it: a table of known
 * model families, the user's overrides (Preferences, `model.contextWindowOverrides`: "pattern=tokens",
 * the first matching pattern wins) and the settings' window for a model nobody knows.
 *
 * Claude Code does not record that a session runs with the 1M-token window (the model id is the
 * same; the window is a request header), so a Claude session whose reported usage or compaction
 * figure is above the standard window is on the extended one.
 */

export interface KnownModelWindow {
  /** matched against the model id, case-insensitive */
  pattern: RegExp;
  contextWindow: number;
  /** the larger window the same id may run with (Claude's 1M beta), taken when the session went beyond contextWindow */
  extendedWindow?: number;
}

const CLAUDE_1M = 1_000_000;

/** Known model families, the most specific first. */
export const KNOWN_MODEL_WINDOWS: readonly KnownModelWindow[] = [
  // an id that says so ("claude-sonnet-4-5[1m]", "...-1m")
  { pattern: /\[1m\]|-1m$/i, contextWindow: CLAUDE_1M },
  { pattern: /^claude-(opus|sonnet)-4/i, contextWindow: 200_000, extendedWindow: CLAUDE_1M },
  { pattern: /^claude-/i, contextWindow: 200_000 },
  // Codex: the windows Codex itself reports for these models (token_count model_context_window)
  { pattern: /^gpt-5(\.\d+)?-codex-spark/i, contextWindow: 121_600 },
  { pattern: /^gpt-5\.6/i, contextWindow: 353_400 },
  { pattern: /^gpt-5/i, contextWindow: 258_400 },
  { pattern: /^gpt-4\.1/i, contextWindow: 1_047_576 },
  { pattern: /^(gpt-4o|gpt-4-turbo)/i, contextWindow: 128_000 },
  { pattern: /^(o1|o3|o4)/i, contextWindow: 200_000 },
  { pattern: /^gemini-/i, contextWindow: 1_048_576 },
];

/** One override from Preferences: "pattern=tokens" (pattern: a model id with `*` as a wildcard). */
export interface ContextWindowOverride {
  pattern: string;
  contextWindow: number;
}

/** "pattern=tokens" -> the override, or an error message for a line that is not one. */
export function parseContextWindowOverride(text: string): ContextWindowOverride | string {
  const at = text.lastIndexOf("=");
  const pattern = at < 0 ? "" : text.slice(0, at).trim();
  const tokens = at < 0 ? "" : text.slice(at + 1).trim().replace(/[_,]/g, "");
  if (pattern === "" || !/^\d+$/.test(tokens) || Number(tokens) <= 0) return `"${text}" is not "model pattern=tokens" (e.g. "claude-sonnet-4*=1000000")`;
  return { pattern, contextWindow: Number(tokens) };
}

function wildcardMatches(pattern: string, model: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "i").test(model);
}

/** Where a session's window came from, for the panels to say. */
export type ContextWindowSource = "override" | "known-model" | "extended" | "settings";

export interface ModelWindow {
  contextWindow: number;
  source: ContextWindowSource;
  /** the model it was looked up for ("" when the session records none) */
  model: string;
}

/**
 * The window of `model` (the id recorded in the session, without a provider prefix or with one):
 * an override, else the known family's (its extended window when `largestSeenTokens` — the largest
 * usage or compaction figure the session reports — is above the standard one), else `fallback`.
 */
export function contextWindowOf(model: string, options: { overrides?: readonly string[]; fallback: number; largestSeenTokens?: number }): ModelWindow {
  const id = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  for (const line of options.overrides ?? []) {
    const o = parseContextWindowOverride(line);
    if (typeof o !== "string" && (wildcardMatches(o.pattern, id) || wildcardMatches(o.pattern, model))) return { contextWindow: o.contextWindow, source: "override", model: id };
  }
  const known = id === "" ? undefined : KNOWN_MODEL_WINDOWS.find((k) => k.pattern.test(id));
  if (known) {
    const seen = options.largestSeenTokens ?? 0;
    if (known.extendedWindow !== undefined && seen > known.contextWindow) return { contextWindow: known.extendedWindow, source: "extended", model: id };
    return { contextWindow: known.contextWindow, source: "known-model", model: id };
  }
  return { contextWindow: options.fallback, source: "settings", model: id };
}
