/**
 * Finding secrets in one piece of text and taking them out. Rules do not run on the text itself but
 * on a view of it of the same length in which JSON and shell escapes are replaced by what they
 * stand for (`\n` → a space and a line break, `\"` → a space and a quote), so a secret after an
 * escaped newline starts a line and a word, whatever depth of escaping it sits under. A match found
 * in the view is cut from the text at the same offsets.
 */
import type { RedactionRule } from "./redact-rules";

export interface SecretRange {
  start: number;
  end: number;
  kind: string;
}

const ESCAPE_CHARS: Record<string, string> = { n: "\n", r: "\n", t: "\t", '"': '"', "'": "'", "/": "/", "`": "`" };

/** The text with escapes replaced by what they stand for, offset for offset. */
export function scanView(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\+(?:u[0-9a-fA-F]{4}|[nrt"'/`])?/g, (escape) => {
    const slashes = escape.length - escape.replace(/^\\+/, "").length;
    const rest = escape.slice(slashes);
    const stands = rest.length === 1 ? (ESCAPE_CHARS[rest] ?? rest) : " ".repeat(rest.length);
    return " ".repeat(slashes) + stands;
  });
}

/** Compiled once: every rule global, with the offsets of its groups. */
export function compileRules(rules: readonly RedactionRule[]): RedactionRule[] {
  return rules.map((rule) => {
    const flags = new Set([...rule.pattern.flags, "g", "d"]);
    return { ...rule, pattern: new RegExp(rule.pattern.source, [...flags].join("")) };
  });
}

/** Where each rule matches in `view` (a scan view), the secret group's offsets only. */
export function ruleRanges(view: string, rules: readonly RedactionRule[]): SecretRange[] {
  const found: SecretRange[] = [];
  for (const rule of rules) {
    const pattern = rule.pattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(view); match; match = pattern.exec(view)) {
      if (match[0].length === 0) {
        pattern.lastIndex += 1;
        continue;
      }
      const span = match.indices?.[rule.group ?? 0];
      if (span && span[1] > span[0]) found.push({ start: span[0], end: span[1], kind: rule.name });
    }
  }
  return found;
}

/** Overlapping ranges joined into one, named by the one that starts first (rule order on a tie). */
export function mergeRanges(ranges: readonly SecretRange[]): SecretRange[] {
  const sorted = ranges.map((r, order) => ({ ...r, order })).sort((a, b) => a.start - b.start || a.order - b.order);
  const merged: SecretRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start < last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ start: range.start, end: range.end, kind: range.kind });
  }
  return merged;
}

/** The text with each (merged) range replaced by `[REDACTED:<kind>]`, each counted in `found`. */
export function cutRanges(text: string, ranges: readonly SecretRange[], found: Map<string, number>): string {
  if (ranges.length === 0) return text;
  let out = "";
  let at = 0;
  for (const range of ranges) {
    out += `${text.slice(at, range.start)}[REDACTED:${range.kind}]`;
    at = range.end;
    found.set(range.kind, (found.get(range.kind) ?? 0) + 1);
  }
  return out + text.slice(at);
}
