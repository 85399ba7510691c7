import { describe, expect, it } from "vitest";
import { extraRules, findingsOf, makeRedactor, DEFAULT_REDACTION_RULES } from "../src/redact";

function redact(text: string, rules = DEFAULT_REDACTION_RULES) {
  const found = new Map<string, number>();
  const out = makeRedactor(rules).redactText(text, found);
  return { out, findings: findingsOf(found) };
}

describe("secrets are redacted before a push", () => {
  const secrets: [string, string][] = [
    ["openai-key", "key sk-proj-abcdefghijklmnopqrstuvwxyz012345 end"],
    ["anthropic-key", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"],
    ["github-token", "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"],
    ["aws-access-key", "AKIAABCDEFGHIJKLMNOP"],
    ["slack-token", "xoxb-1234567890-abcdef"],
    ["google-api-key", "AIzaSyA1234567890abcdefghijklmnopqrstuv"],
    ["jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"],
    ["private-key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"],
    ["bonsai-token", "bonsai_0123456789abcdef_" + "a".repeat(43)],
  ];
  for (const [rule, text] of secrets) {
    it(`finds ${rule}`, () => {
      const { out, findings } = redact(text);
      expect(out).toContain(`[REDACTED:${rule}]`);
      expect(findings.map((f) => f.rule)).toContain(rule);
    });
  }

  it("keeps the name of an .env line and the host of a URL readable", () => {
    const { out } = redact("DATABASE_PASSWORD=hunter2!\nexport API_TOKEN=abc123\nPATH=/usr/bin\npostgres://app:s3cret@db.internal:5432/x");
    expect(out).toBe("DATABASE_PASSWORD=[REDACTED:env-secret]\nexport API_TOKEN=[REDACTED:env-secret]\nPATH=/usr/bin\npostgres://app:[REDACTED:url-password]@db.internal:5432/x");
  });

  it("keeps the scheme of a bearer header", () => {
    expect(redact("Authorization: Bearer abcdefghijklmnopqrstuvwx").out).toBe("Authorization: Bearer [REDACTED:bearer-token]");
  });

  it("leaves code that merely names keys and tokens alone", () => {
    const code = "_OBJECT_KEY_PATTERN = re.compile(r'x')\n    wrapping_key: Callable[[str], bytes]\n    lease_token=lease.token,\n    archive_key = f'{prefix}/x'";
    expect(redact(code)).toEqual({ out: code, findings: [] });
  });

  it("leaves ordinary prose and code alone", () => {
    const text = "Refactor the task-runner so skip-lists work; see https://example.com/docs and const key = obj.key;";
    expect(redact(text)).toEqual({ out: text, findings: [] });
  });

  it("walks every string of an entry and counts what it found", () => {
    const found = new Map<string, number>();
    const entry = { type: "message", message: { content: [{ type: "text", text: "use AKIAABCDEFGHIJKLMNOP" }, { type: "toolResult", output: "TOKEN=x1" }] }, n: 3 };
    const out = makeRedactor().redactValue(entry, found);
    expect(out).toEqual({ type: "message", message: { content: [{ type: "text", text: "use [REDACTED:aws-access-key]" }, { type: "toolResult", output: "TOKEN=[REDACTED:env-secret]" }] }, n: 3 });
    expect(findingsOf(found)).toEqual([{ rule: "aws-access-key", count: 1 }, { rule: "env-secret", count: 1 }]);
    expect(entry.message.content[0]?.text).toBe("use AKIAABCDEFGHIJKLMNOP");
  });

  it("takes extra patterns from settings and refuses one that does not compile", () => {
    const rules = [...DEFAULT_REDACTION_RULES, ...extraRules(["ACME-[0-9]{6}"])];
    expect(redact("ticket ACME-123456", rules).out).toBe("ticket [REDACTED:custom-1]");
    expect(() => extraRules(["("])).toThrow(/team.redactPatterns\[0\] is not a regular expression/);
  });
});
