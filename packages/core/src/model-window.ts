/**
 * The context window a session is judged against, from the model recorded in it: a table of known
 * model families, the user's overrides (Preferences or `bonsai config`, `model.contextWindowOverrides`:
 * "pattern=tokens", the first matching pattern wins) and the settings' window for a model nobody knows.
 * The page, the CLI, what-if and amnesia all take a session's window from `windowOfSession`.
 *
 * The table: Codex's windows are the ones Codex records in its own files (`token_count`'s
 * `model_context_window`); Claude's and the others' are the providers' published windows (checked
 * against pi-ai's generated model list, whose Claude 4.6+ entries are 1M because pi requests the
 * 1M window: Claude Code does not by default and compacts near 167K, as the real files show). No
 * model-metadata package on npm is current for these models, so the table is kept here.
 *
 * Evidence from the file wins: Claude Code does not record that a session runs with the 1M-token
 * window (the model id is the same; the window is a request header), so a Claude session whose
 * reported usage or compaction figure is above the standard window is on the extended one; and any
 * session whose recorded figure is above the window assumed for it proves at least that figure
 * ("recorded"), so no session is shown above 100 % of its window for want of a table row.
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
  // Opus and Sonnet from 4 on (claude-opus-4-8, claude-opus-5, …): 200K, or 1M when asked for
  { pattern: /^claude-(opus|sonnet)-([4-9]|\d\d)/i, contextWindow: 200_000, extendedWindow: CLAUDE_1M },
  // any other Claude id (claude-haiku-4-5, claude-fable-5, …): 200K; a session past that is on 1M, Claude's only larger window
  { pattern: /^claude-/i, contextWindow: 200_000, extendedWindow: CLAUDE_1M },
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
export type ContextWindowSource = "override" | "known-model" | "extended" | "settings" | "recorded";

export interface ModelWindow {
  contextWindow: number;
  source: ContextWindowSource;
  /** the model it was looked up for ("" when the session records none) */
  model: string;
}

/**
 * The window of `model` (the id recorded in the session, without a provider prefix or with one):
 * an override, else the known family's, else `fallback`; then the evidence (`largestSeenTokens`,
 * the largest usage or compaction figure the session reports): above that window it is the
 * family's extended window when it has one that holds it, else the recorded figure itself.
 */
export function contextWindowOf(model: string, options: { overrides?: readonly string[]; fallback: number; largestSeenTokens?: number }): ModelWindow {
  const id = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  const assumed = assumedWindowOf(model, id, options);
  const seen = options.largestSeenTokens ?? 0;
  if (seen <= assumed.contextWindow) return assumed;
  const extended = assumed.source === "override" ? undefined : knownWindowOf(id)?.extendedWindow;
  if (extended !== undefined && seen <= extended) return { contextWindow: extended, source: "extended", model: id };
  return { contextWindow: seen, source: "recorded", model: id };
}

function knownWindowOf(id: string): KnownModelWindow | undefined {
  return id === "" ? undefined : KNOWN_MODEL_WINDOWS.find((k) => k.pattern.test(id));
}

/** the window assumed for a model before the file's evidence: an override, the table's, the settings' */
function assumedWindowOf(model: string, id: string, options: { overrides?: readonly string[]; fallback: number }): ModelWindow {
  for (const line of options.overrides ?? []) {
    const o = parseContextWindowOverride(line);
    if (typeof o !== "string" && (wildcardMatches(o.pattern, id) || wildcardMatches(o.pattern, model))) return { contextWindow: o.contextWindow, source: "override", model: id };
  }
  const known = knownWindowOf(id);
  if (known) return { contextWindow: known.contextWindow, source: "known-model", model: id };
  return { contextWindow: options.fallback, source: "settings", model: id };
}

/** What a session's file tells about its window: the model of its last reported usage and the largest figure it records. */
export interface WindowEvidence {
  /** the model of the last usage reported on the path ("" when none) */
  model: string;
  /** the larger of that usage (calculateContextTokens) and the latest compaction's tokensBefore */
  largestSeenTokens: number;
}

/** The evidence from the last reported usage and the latest compaction of a path (what every reader of a session has at hand). */
export function windowEvidenceOf(usage: { tokens: number; model: string } | null, latestCompaction: { tokensBefore: number } | null): WindowEvidence {
  const before = latestCompaction && Number.isFinite(latestCompaction.tokensBefore) ? latestCompaction.tokensBefore : 0;
  return { model: usage?.model ?? "", largestSeenTokens: Math.max(usage?.tokens ?? 0, before) };
}

/** The window of a session (the page, the CLI, what-if and amnesia): its model's under the settings, with the file's evidence. */
export function windowOfSession(evidence: WindowEvidence, model: { contextWindow: number; contextWindowOverrides?: readonly string[] }): ModelWindow {
  return contextWindowOf(evidence.model, { overrides: model.contextWindowOverrides ?? [], fallback: model.contextWindow, largestSeenTokens: evidence.largestSeenTokens });
}
