/**
 * Secrets are taken out of everything a push sends before it leaves the machine: one function walks
 * any JSON value (the session's metadata, each entry) and redacts every string and every object
 * key in it, whatever field it sits in. A string that holds JSON (the original lines Claude Code and
 * Codex entries keep, the header) is decoded and walked the same way, then written back. Each
 * string is scanned together with the key it is the value of (`"SecretAccessKey": "…"`), by
 * secretlint's recommended preset and by Bonsai's own rules (redact-rules.ts) plus the setting
 * `team.redactPatterns`; a secret becomes `[REDACTED:<kind>]`, and every replacement is counted under
 * its kind, so the report says exactly what was removed. docs/TEAM.md lists the rules and limits.
 */
import { compileRules, cutRanges, decodedView, mergeRanges, rangeInText, ruleRanges, type DecodedView, type SecretRange } from "./redact-text";
import { DEFAULT_REDACTION_RULES, type RedactionRule } from "./redact-rules";
import { secretlintRanges } from "./redact-secretlint";

export { DEFAULT_REDACTION_RULES, extraRules, type RedactionRule } from "./redact-rules";

export interface RedactionFinding {
  rule: string;
  count: number;
}

export interface Redactor {
  /** a deep copy of a JSON value with every secret taken out of its strings and keys, each counted in `found` */
  redact<T>(value: T, found: Map<string, number>): Promise<T>;
}

/** One string to scan, with the text around it that gives it meaning (its key). */
interface Slot {
  text: string;
  prefix: string;
  suffix: string;
  out: string;
}

type Build = () => unknown;

function decodedJson(text: string): object | undefined {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

function addSlot(slots: Slot[], text: string, prefix = "", suffix = ""): number {
  return slots.push({ text, prefix, suffix, out: text }) - 1;
}

/** Registers every string and key of `value` as a slot; returns how to build the redacted copy. */
function plan(value: unknown, slots: Slot[], key?: string): Build {
  if (typeof value === "string") {
    const json = decodedJson(value);
    if (json) {
      const first = slots.length;
      const build = plan(json, slots);
      const last = slots.length;
      return () => {
        const inner = build();
        return slots.slice(first, last).some((s) => s.out !== s.text) ? JSON.stringify(inner) : value;
      };
    }
    const at = key === undefined ? addSlot(slots, value) : addSlot(slots, value, `"${key}": "`, '"');
    return () => slots[at]?.out;
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => plan(item, slots));
    return () => items.map((build) => build());
  }
  if (value !== null && typeof value === "object") {
    const fields = Object.entries(value).map(([name, item]) => ({ at: addSlot(slots, name), build: plan(item, slots, name) }));
    return () => {
      const copy: Record<string, unknown> = {};
      for (const field of fields) {
        const base = slots[field.at]?.out as string;
        let name = base;
        for (let n = 2; Object.hasOwn(copy, name); n++) name = `${base} #${n}`;
        Object.defineProperty(copy, name, { value: field.build(), enumerable: true, writable: true, configurable: true });
      }
      return copy;
    };
  }
  return () => value;
}

/**
 * Slots are scanned as one text, joined by a line holding NUL (no rule reads across it: a key
 * block's body, a line, a token all stop there); each range is then cut back into the slots it
 * touches.
 */
const SEPARATOR = "\n\u0000\n";

function bySlot(ranges: readonly SecretRange[], starts: readonly number[], views: readonly string[]): SecretRange[][] {
  const out: SecretRange[][] = views.map(() => []);
  for (const range of ranges) {
    // the last slot that starts at or before the range
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= range.start) lo = mid;
      else hi = mid - 1;
    }
    for (let i = lo; i < views.length && (starts[i] as number) < range.end; i++) {
      const from = starts[i] as number;
      const to = from + (views[i] as string).length;
      if (range.end <= from || range.start >= to) continue;
      out[i]?.push({ start: Math.max(range.start, from) - from, end: Math.min(range.end, to) - from, kind: range.kind });
    }
  }
  return out;
}

function overlaps(range: SecretRange, others: readonly SecretRange[]): boolean {
  return others.some((other) => range.start < other.end && other.start < range.end);
}

/** A range found in prefix + text + suffix, moved onto the text alone (undefined when outside it). */
function ontoText(range: SecretRange, slot: Slot): SecretRange | undefined {
  const start = Math.max(range.start - slot.prefix.length, 0);
  const end = Math.min(range.end - slot.prefix.length, slot.text.length);
  return end > start ? { start, end, kind: range.kind } : undefined;
}

export function makeRedactor(rules: readonly RedactionRule[] = DEFAULT_REDACTION_RULES): Redactor {
  const compiled = compileRules(rules);
  return {
    async redact<T>(value: T, found: Map<string, number>): Promise<T> {
      const slots: Slot[] = [];
      const build = plan(value, slots);
      const decoded = slots.map((slot) => decodedView(slot.prefix + slot.text + slot.suffix));
      const views = decoded.map((d) => d.view);
      const starts: number[] = [];
      let length = 0;
      for (const view of views) {
        starts.push(length);
        length += view.length + SEPARATOR.length;
      }
      const joined = views.join(SEPARATOR);
      const own = bySlot(ruleRanges(joined, compiled), starts, views);
      const linted = bySlot(await secretlintRanges(joined), starts, views);
      slots.forEach((slot, i) => {
        // Bonsai's rules cut precisely (a name or a host stays); secretlint covers what they do not
        const mine = own[i] ?? [];
        const extra = (linted[i] ?? []).filter((range) => !overlaps(range, mine));
        const ranges = [...mine, ...extra]
          .map((range) => ontoText(rangeInText(range, decoded[i] as DecodedView), slot))
          .filter((range) => range !== undefined);
        slot.out = cutRanges(slot.text, mergeRanges(ranges), found);
      });
      return build() as T;
    },
  };
}

export function findingsOf(found: Map<string, number>): RedactionFinding[] {
  return [...found].map(([rule, count]) => ({ rule, count })).sort((a, b) => a.rule.localeCompare(b.rule));
}
