/**
 * Secrets are taken out of a session before it leaves the machine. Each rule names what it finds;
 * the matched secret becomes `[REDACTED:<rule>]` (for `.env` lines and URLs, only the value or the
 * password: the name and the host stay readable). The list is documented in docs/TEAM.md and
 * extended by the setting `team.redactPatterns` (regular expressions; the whole match is redacted).
 */

export interface RedactionRule {
  name: string;
  pattern: RegExp;
  /** which capture group is the secret (0 = the whole match) */
  group?: number;
}

export const DEFAULT_REDACTION_RULES: readonly RedactionRule[] = [
  { name: "private-key", pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g },
  { name: "anthropic-key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: "openai-key", pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { name: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { name: "gitlab-token", pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { name: "aws-access-key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: "slack-token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { name: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { name: "stripe-key", pattern: /\b(?:sk|rk)_live_[0-9A-Za-z]{24,}/g },
  { name: "npm-token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: "bonsai-token", pattern: /\bbonsai_[0-9a-f]{16}_[A-Za-z0-9_-]{43}/g },
  { name: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { name: "bearer-token", pattern: /\b(Bearer\s+)([A-Za-z0-9._~+/=-]{16,})/g, group: 2 },
  { name: "url-password", pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi, group: 2 },
  {
    name: "env-secret",
    // an .env line: an upper-case name that says what it holds, "=" with no space, a value
    pattern: /^(\s*(?:export\s+)?[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|CREDENTIALS?|AUTH)[A-Z0-9_]*=)(?!\[REDACTED:)(\S.*)$/gm,
    group: 2,
  },
];

export interface RedactionFinding {
  rule: string;
  count: number;
}

export interface Redactor {
  /** the text with every secret replaced, and what was found */
  redactText(text: string, found: Map<string, number>): string;
  /** a deep copy of a JSON value with every string redacted */
  redactValue<T>(value: T, found: Map<string, number>): T;
}

/** Compiles the user's extra patterns; a pattern that does not compile is refused with its text. */
export function extraRules(patterns: readonly string[]): RedactionRule[] {
  return patterns.map((source, index) => {
    try {
      return { name: `custom-${index + 1}`, pattern: new RegExp(source, "g") };
    } catch (error) {
      throw new Error(`team.redactPatterns[${index}] is not a regular expression: ${(error as Error).message}`, { cause: error });
    }
  });
}

export function makeRedactor(rules: readonly RedactionRule[] = DEFAULT_REDACTION_RULES): Redactor {
  const redactText = (text: string, found: Map<string, number>): string => {
    let out = text;
    for (const rule of rules) {
      rule.pattern.lastIndex = 0;
      if (!rule.pattern.test(out)) continue;
      rule.pattern.lastIndex = 0;
      out = out.replace(rule.pattern, (...match: unknown[]) => {
        found.set(rule.name, (found.get(rule.name) ?? 0) + 1);
        const whole = match[0] as string;
        const group = rule.group ?? 0;
        if (group === 0) return `[REDACTED:${rule.name}]`;
        const secret = match[group] as string;
        const groups = match.slice(1, -2) as (string | undefined)[];
        const before = groups.slice(0, group - 1).join("");
        return `${before}[REDACTED:${rule.name}]${whole.slice(before.length + secret.length)}`;
      });
    }
    return out;
  };
  const redactValue = <T>(value: T, found: Map<string, number>): T => {
    if (typeof value === "string") return redactText(value, found) as T;
    if (Array.isArray(value)) return value.map((item) => redactValue(item, found)) as T;
    if (value !== null && typeof value === "object") {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) copy[key] = redactValue(item, found);
      return copy as T;
    }
    return value;
  };
  return { redactText, redactValue };
}

export function findingsOf(found: Map<string, number>): RedactionFinding[] {
  return [...found].map(([rule, count]) => ({ rule, count })).sort((a, b) => a.rule.localeCompare(b.rule));
}
