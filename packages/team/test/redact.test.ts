import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { extraRules, findingsOf, makeRedactor, DEFAULT_REDACTION_RULES } from "../src/redact";
import { decodedView } from "../src/redact-text";
import { kindName } from "../src/redact-secretlint";
import { SECRET_FORMS } from "./secret-corpus";

async function redact(text: string, rules = DEFAULT_REDACTION_RULES) {
  const found = new Map<string, number>();
  const out = await makeRedactor(rules).redact(text, found);
  return { out, findings: findingsOf(found) };
}

function markers(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/\[REDACTED:([a-z0-9-]+)\]/g)) counts.set(match[1] as string, (counts.get(match[1] as string) ?? 0) + 1);
  return counts;
}

describe("secrets are redacted before a push", () => {
  for (const form of SECRET_FORMS) {
    it(`takes out ${form.name}, and the report names each marker it left`, async () => {
      const { out, findings } = await redact(form.text);
      for (const secret of form.secrets) expect(out).not.toContain(secret);
      expect(findings).toEqual(findingsOf(markers(out)));
      expect(findings.length).toBeGreaterThan(0);
    });
  }

  it("names each kind: Bonsai's rules by name, secretlint's by its message", async () => {
    const rules = [
      ["anthropic-key", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"],
      ["aws-access-key", "AKIAABCDEFGHIJKLMNOP"],
      ["private-key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"],
      ["aws-secret-key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"],
      ["basic-auth", "Authorization: Basic dXNlcjpwYXNzd29yZA=="],
    ];
    for (const [rule, text] of rules) expect((await redact(text as string)).findings.map((f) => f.rule)).toContain(rule);
    expect(kindName("AWSSecretAccessKey")).toBe("aws-secret-access-key");
    expect(kindName("GITHUB_TOKEN")).toBe("github-token");
  });

  it("keeps the name of an .env line and the host of a URL readable", async () => {
    const { out } = await redact("DATABASE_PASSWORD=hunter2!\nexport API_TOKEN=abc123\nPATH=/usr/bin\npostgres://app:s3cret@db.internal:5432/x\nredis://:pw/with@cache:6379");
    expect(out).toBe("DATABASE_PASSWORD=[REDACTED:env-secret]\nexport API_TOKEN=[REDACTED:env-secret]\nPATH=/usr/bin\npostgres://app:[REDACTED:url-password]@db.internal:5432/x\nredis://:[REDACTED:url-password]@cache:6379");
  });

  it("keeps the scheme of an authorization header", async () => {
    expect((await redact("Authorization: Bearer abcdefghijklmnopqrstuvwx")).out).toBe("Authorization: Bearer [REDACTED:bearer-token]");
    expect((await redact("authorization: Basic dXNlcjpwYXNzd29yZA==")).out).toBe("authorization: Basic [REDACTED:basic-auth]");
  });

  it("cuts a private key without its END line to the end of its base64 body, and leaves what follows", async () => {
    const { out } = await redact("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAq7BFUpkGp3XQ9Zt5\nYx1mQ2cH8vLr4Nw0eTz6bJkPuVa9sDf\n[output truncated] see the log");
    expect(out).toBe("[REDACTED:private-key]\n[output truncated] see the log");
  });

  it("sees a secret after an escaped newline, at any depth of escaping", async () => {
    for (const text of [String.raw`a\nsk-ant-api03-abcdefghijklmnopqrstuvwxyz`, String.raw`a\\nsk-ant-api03-abcdefghijklmnopqrstuvwxyz`, String.raw`{\"k\":\"x\\nAKIAABCDEFGHIJKLMNOP\"}`]) {
      const { out } = await redact(text);
      expect(out).not.toMatch(/abcdefghijklmnopqrstuvwxyz|AKIAABCDEFGHIJKLMNOP/);
    }
    const decoded = decodedView(String.raw`a\nb\"c\\\\nd\u0041`);
    expect(decoded.view).toBe('a\nb"c\nd' + "A");
    expect(decoded.at).toEqual([0, 1, 3, 4, 6, 7, 12, 13, 19]);
  });

  it("redacts object keys, the key's context, and JSON kept inside strings (original lines, headers)", async () => {
    const original = JSON.stringify({ type: "user", message: { content: "line\nsk-ant-api03-abcdefghijklmnopqrstuvwxyz" }, cwd: "/home/u" });
    const entry = {
      type: "message",
      args: { "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB": true, SecretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", password: "LongEnoughValueXyz" },
      original: { n: 1, text: original },
    };
    const found = new Map<string, number>();
    const out = await makeRedactor().redact(entry, found);
    const json = JSON.stringify(out);
    expect(json).not.toMatch(/ghp_abc|wJalrXUtnFEMI|LongEnoughValueXyz|abcdefghijklmnopqrstuvwxyz/);
    expect(Object.keys(out.args)).toEqual(["[REDACTED:github-token]", "SecretAccessKey", "password"]);
    // the kept line is still the JSON it was, with the secret taken out of the decoded text
    expect(JSON.parse(out.original.text)).toEqual({ type: "user", message: { content: "line\n[REDACTED:anthropic-key]" }, cwd: "/home/u" });
    expect(findingsOf(found)).toEqual(findingsOf(markers(json.replaceAll("\\", ""))));
    expect(entry.args.password).toBe("LongEnoughValueXyz");
  });

  it("reads a value at the start of its string and, when its key says what it holds, after its key", async () => {
    const found = new Map<string, number>();
    const out = await makeRedactor().redact({ cmd: "DB_PASSWORD=hunter ./run", headers: { Authorization: "Basic dXNlcjpodW50ZXI=" } }, found);
    expect(out).toEqual({ cmd: "DB_PASSWORD=[REDACTED:env-secret]", headers: { Authorization: "Basic [REDACTED:basic-auth]" } });
    expect(findingsOf(found)).toEqual([{ rule: "basic-auth", count: 1 }, { rule: "env-secret", count: 1 }]);
  });

  it("reads JSON nested deeper than it walks as text, and a secret in it is still taken out", async () => {
    const deep = `${"[".repeat(50_000)}"sk-ant-api03-abcdefghijklmnopqrstuvwxyz"${"]".repeat(50_000)}`;
    const found = new Map<string, number>();
    const out = await makeRedactor().redact({ output: deep, nested: JSON.parse(`${"[".repeat(300)}"AKIAABCDEFGHIJKLMNOP"${"]".repeat(300)}`) as unknown }, found);
    expect(JSON.stringify(out)).not.toMatch(/abcdefghijklmnopqrstuvwxyz|AKIAABCDEFGHIJKLMNOP/);
    expect(findingsOf(found)).toEqual([{ rule: "anthropic-key", count: 1 }, { rule: "aws-access-key", count: 1 }]);
  });

  it("takes no orders from the text: a secretlint-disable comment in one string hides nothing", async () => {
    // secretlint's rules alone (no Bonsai rule), on a URL they find
    const found = new Map<string, number>();
    const text = "mysql://root:S3cretlintOnly@db.internal:3306/app";
    const out = await makeRedactor([]).redact(["// secretlint-disable", text, "x // secretlint-disable-line", `${text} // secretlint-disable-line`], found);
    expect(JSON.stringify(out)).not.toContain("S3cretlintOnly");
  });

  it("leaves a JSON string that holds no secret byte for byte as it was", async () => {
    const line = '{"a": 1,  "b": "x"}';
    expect((await redact(line)).out).toBe(line);
  });

  it("leaves code that merely names keys and tokens alone", async () => {
    const code = "_OBJECT_KEY_PATTERN = re.compile(r'x')\n    wrapping_key: Callable[[str], bytes]\n    lease_token=lease.token,\n    archive_key = f'{prefix}/x'\n    const token = await getToken(user);\n    password: string;\n    fetch(path, { credentials: \"same-origin\" });";
    expect(await redact(code)).toEqual({ out: code, findings: [] });
  });

  it("leaves ordinary prose, code, hashes and ids alone", async () => {
    const texts = [
      "Refactor the task-runner so skip-lists work; see https://example.com/docs and const key = obj.key;",
      "commit 4b82b13c0e1f3a2b5d6e7f8091a2b3c4d5e6f708 (HEAD -> main) Merge: 89b4e02 d7a5ca1",
      "session 019dd1b7-a5a1-776d-a01b-8e0a84059557, entry fa43908d, sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      "import { readFile } from 'node:fs/promises';\nexport function tokenize(text: string): string[] { return text.split(/\\s+/); }",
      "https://github.com/entireio/cli/blob/85311dca638692894df091f5514c86c526c79147/cd/95adddad32/0/full.jsonl",
      '{"type":"message","usage":{"input_tokens":27556,"output_tokens":872},"model":"claude-opus-4-6"}',
    ];
    for (const text of texts) expect(await redact(text)).toEqual({ out: text, findings: [] });
  });

  it("takes long texts made to make patterns backtrack in time proportional to their length", async () => {
    // each of these took from 2 to 67 s in one rule before its repetitions were bounded; now all of them take about a second
    const texts = ["a.", "-----BEGIN PRIVATE KEY-----\n", "password=", "mysql ", "sk-", "http://a:", "?token=", "eyJ-", "Cookie: a=", "-u x"].map((unit) => unit.repeat(Math.ceil(200_000 / unit.length)));
    texts.push("A".repeat(200_000), `-----BEGIN RSA PRIVATE KEY-----\n${"QUJD".repeat(50_000)}`, "\\".repeat(200_000));
    const started = performance.now();
    for (const text of texts) await redact(text);
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 60_000);

  it("takes extra patterns from settings and refuses one that does not compile", async () => {
    const rules = [...DEFAULT_REDACTION_RULES, ...extraRules(["ACME-[0-9]{6}"])];
    expect((await redact("ticket ACME-123456", rules)).out).toBe("ticket [REDACTED:custom-1]");
    // anchored patterns match at the start of each string, as they did when strings were scanned one by one
    const anchored = [...DEFAULT_REDACTION_RULES, ...extraRules(["^internal-[a-z]+$"])];
    const found = new Map<string, number>();
    expect(await makeRedactor(anchored).redact({ a: "internal-host", b: ["x", "internal-db"], c: "an internal-host" }, found)).toEqual({ a: "[REDACTED:custom-1]", b: ["x", "[REDACTED:custom-1]"], c: "an internal-host" });
    expect(findingsOf(found)).toEqual([{ rule: "custom-1", count: 2 }]);
    expect(() => extraRules(["("])).toThrow(/team.redactPatterns\[0\] is not a regular expression/);
  });
});

describe("real sessions, which their curator scanned for secrets, keep their text", () => {
  const REAL = path.resolve(__dirname, "../../../../shared/fixtures/real");
  // one file of each agent; the only findings are `.env` lines that name a key (one a placeholder, four a public token)
  const files: [string, { rule: string; count: number }[]][] = [
    ["pi/codyborders__yinshi__34_1a3af3e9ec_3_full.jsonl", []],
    ["claude-code/ta93abe__me__05_082272ed34_0_full.jsonl", [{ rule: "env-secret", count: 4 }]],
    ["codex/ta93abe__me__0e_9c08d8603f_0_full.jsonl", [{ rule: "env-secret", count: 1 }]],
  ];
  for (const [file, expected] of files) {
    it.skipIf(!fs.existsSync(path.join(REAL, file)))(`redacts only what it should in ${file.split("/")[0]}`, async () => {
      const lines = fs.readFileSync(path.join(REAL, file), "utf8").split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as unknown);
      const found = new Map<string, number>();
      const out = await makeRedactor().redact(lines, found);
      expect(findingsOf(found)).toEqual(expected);
      expect(findingsOf(markers(JSON.stringify(out)))).toEqual(expected);
    }, 60_000);
  }
});
