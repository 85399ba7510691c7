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
import { planRedaction, type Slot, type SlotContext } from "./redact-walk";

export { DEFAULT_REDACTION_RULES, extraRules, type RedactionRule } from "./redact-rules";

export interface RedactionFinding {
  rule: string;
  count: number;
}

export interface Redactor {
  /** a deep copy of a JSON value with every secret taken out of its strings and keys, each counted in `found` */
  redact<T>(value: T, found: Map<string, number>): Promise<T>;
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
function ontoText(range: SecretRange, context: SlotContext, text: string): SecretRange | undefined {
  const start = Math.max(range.start - context.prefix.length, 0);
  const end = Math.min(range.end - context.prefix.length, text.length);
  return end > start ? { start, end, kind: range.kind } : undefined;
}

interface Scan {
  slot: Slot;
  context: SlotContext;
  decoded: DecodedView;
}

export function makeRedactor(rules: readonly RedactionRule[] = DEFAULT_REDACTION_RULES): Redactor {
  const compiled = compileRules(rules);
  return {
    async redact<T>(value: T, found: Map<string, number>): Promise<T> {
      const slots: Slot[] = [];
      const build = planRedaction(value, slots);
      const scans: Scan[] = slots.flatMap((slot) => slot.contexts.map((context) => ({ slot, context, decoded: decodedView(context.prefix + slot.text + context.suffix) })));
      const views = scans.map((scan) => scan.decoded.view);
      const starts: number[] = [];
      let length = 0;
      for (const view of views) {
        starts.push(length);
        length += view.length + SEPARATOR.length;
      }
      const joined = views.join(SEPARATOR);
      const own = bySlot(ruleRanges(joined, compiled), starts, views);
      const linted = bySlot(await secretlintRanges(joined), starts, views);
      // every range as offsets of its slot's text, Bonsai's and secretlint's apart
      const onText = (ranges: SecretRange[] | undefined, scan: Scan): SecretRange[] =>
        (ranges ?? []).map((range) => ontoText(rangeInText(range, scan.decoded), scan.context, scan.slot.text)).filter((range) => range !== undefined);
      const mine = new Map<Slot, SecretRange[]>();
      const theirs = new Map<Slot, SecretRange[]>();
      scans.forEach((scan, i) => {
        mine.set(scan.slot, [...(mine.get(scan.slot) ?? []), ...onText(own[i], scan)]);
        theirs.set(scan.slot, [...(theirs.get(scan.slot) ?? []), ...onText(linted[i], scan)]);
      });
      for (const slot of slots) {
        // Bonsai's rules cut precisely (a name or a host stays); secretlint covers what they do not
        const ownRanges = mine.get(slot) ?? [];
        const extra = (theirs.get(slot) ?? []).filter((range) => !overlaps(range, ownRanges));
        slot.out = cutRanges(slot.text, mergeRanges([...ownRanges, ...extra]), found);
      }
      return build() as T;
    },
  };
}

export function findingsOf(found: Map<string, number>): RedactionFinding[] {
  return [...found].map(([rule, count]) => ({ rule, count })).sort((a, b) => a.rule.localeCompare(b.rule));
}
