/**
 * Finding secrets in one piece of text and taking them out. Rules do not run on the text itself but
 * on a decoded view of it, in which JSON and shell escapes (`\n`, `\"`, `\/`, `\u0041`, up to four
 * levels deep) are replaced by what they stand for, so a secret after an escaped newline starts a
 * line and a word. Each character of the view knows where in the text it came from, so a match found
 * in the view is cut from the text, escapes and all.
 */
import type { RedactionRule } from "./redact-rules";

export interface SecretRange {
  start: number;
  end: number;
  kind: string;
}

export interface DecodedView {
  /** the text with its escapes replaced by what they stand for */
  view: string;
  /** for each offset of `view` (and its end), the offset in the text it came from; null when no escape was replaced */
  at: number[] | null;
}

const ENTITIES: Record<string, string> = { "&quot;": '"', "&apos;": "'", "&amp;": "&", "&lt;": "<", "&gt;": ">", "&#39;": "'", "&#34;": '"', "&#x27;": "'", "&#x22;": '"' };
const ESCAPED: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: " ", f: " ", '"': '"', "'": "'", "/": "/", "`": "`", "\\": "\\" };
/** a JSON or shell escape, an HTML entity for a quote or bracket, or a terminal's colour or cursor sequence (taken out: `\x1b[32mghp_…`) */
// eslint-disable-next-line no-control-regex
const ESCAPE = /\\(?:u[0-9a-fA-F]{4}|[nrtbf"'/`\\])|&(?:quot|apos|amp|lt|gt|#39|#34|#x27|#x22);|\u001b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]/g;
/** escapes inside escapes (a JSON line quoted in a log quoted in JSON) are decoded this many levels deep */
const LEVELS = 4;

function decodeOnce(text: string): { view: string; at: number[] } | null {
  ESCAPE.lastIndex = 0;
  if (!ESCAPE.test(text)) return null;
  ESCAPE.lastIndex = 0;
  let view = "";
  const at: number[] = [];
  let from = 0;
  for (let match = ESCAPE.exec(text); match; match = ESCAPE.exec(text)) {
    for (let i = from; i < match.index; i++) at.push(i);
    view += text.slice(from, match.index);
    const escape = match[0];
    if (escape[0] === "\\") {
      view += escape[1] === "u" ? String.fromCharCode(Number.parseInt(escape.slice(2), 16)) : (ESCAPED[escape[1] as string] as string);
      at.push(match.index);
    } else if (escape[0] === "&") {
      view += ENTITIES[escape] as string;
      at.push(match.index);
    }
    from = match.index + escape.length;
  }
  for (let i = from; i < text.length; i++) at.push(i);
  view += text.slice(from);
  at.push(text.length);
  return { view, at };
}

/** The text with JSON and shell escapes replaced by what they stand for, and where each character came from. */
export function decodedView(text: string): DecodedView {
  let view = text;
  let at: number[] | null = null;
  for (let level = 0; level < LEVELS; level++) {
    const next = decodeOnce(view);
    if (!next) break;
    const outer: number[] | null = at;
    at = outer ? next.at.map((offset) => outer[offset] as number) : next.at;
    view = next.view;
  }
  return { view, at };
}

/** A range of a decoded view as offsets of the text it was decoded from. */
export function rangeInText(range: SecretRange, decoded: DecodedView): SecretRange {
  if (!decoded.at) return range;
  return { start: decoded.at[range.start] as number, end: decoded.at[range.end] as number, kind: range.kind };
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
