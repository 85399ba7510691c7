/**
 * Bonsai's own redaction rules: what secretlint's recommended preset misses or finds only in one
 * layout (credential files, STS JSON, truncated PEM and PGP key blocks, Basic authorization, URL
 * passwords with an empty user or a `/`, assignments to a name that says it holds a secret), plus
 * the tokens with a fixed prefix. They run on decoded text in which JSON escapes were turned into
 * the characters they stand for (see redact-text.ts), so `\b` and `^` see a `\n`-escaped line start.
 * Each rule names the kind of secret; `group` picks the capture that is the secret (0 = the whole
 * match), so a name, a scheme or a host stays readable.
 */

export interface RedactionRule {
  name: string;
  pattern: RegExp;
  /** which capture group is the secret (0 = the whole match) */
  group?: number;
}

const KEY_BEGIN = String.raw`-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----`;
const KEY_END = String.raw`-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----`;
/** armor headers ("Version: …", "Proc-Type: …"), base64 lines and the PGP checksum line */
const KEY_BODY = String.raw`(?:\s*(?:[A-Z][A-Za-z-]*: [^\r\n]*|[A-Za-z0-9+/]{8,}={0,2}|=[A-Za-z0-9+/]{4}))*`;
/** a name that says what it holds, in any case (ini files, YAML, JSON keys); the value after it is matched case-sensitively */
/** a value that stands for a secret rather than being one: $VAR, ${VAR}, <your-key>, %VAR%, *** */
const NOT_PLACEHOLDER = String.raw`(?![$<{%*]|\[REDACTED)`;
/** an assigned value that is a link or a path, not a secret (a URL's password has its own rule) */
const NOT_LINK = String.raw`(?!https?://|/)`;
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]{0,40}?(?i:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?|auth)(?:[_-]?(?i:key|value))?`;

export const DEFAULT_REDACTION_RULES: readonly RedactionRule[] = [
  { name: "private-key", pattern: new RegExp(`${KEY_BEGIN}(?:(?!-----BEGIN)[^\\u0000])*?${KEY_END}`, "g") },
  // truncated output: no END line; everything up to the end of the base64 body
  { name: "private-key", pattern: new RegExp(`${KEY_BEGIN}${KEY_BODY}`, "g") },
  { name: "anthropic-key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: "openai-key", pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { name: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { name: "gitlab-token", pattern: /\bgl(?:pat|dt|rt|ptt|cbt|soat)-[A-Za-z0-9_-]{20,}/g },
  { name: "aws-access-key", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|A3T[A-Z0-9])[0-9A-Z]{16}\b/g },
  {
    name: "aws-secret-key",
    // ~/.aws/credentials (aws_secret_access_key = …), env (AWS_SECRET_ACCESS_KEY=…), STS JSON ("SecretAccessKey": "…")
    pattern: /\b((?:aws_?)?secret_?access_?key|aws_?secret_?key)(["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{16,})/gi,
    group: 3,
  },
  { name: "aws-session-token", pattern: /\b((?:aws_?)?session_?token|SessionToken)(["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{16,})/gi, group: 3 },
  { name: "slack-token", pattern: /\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}/g },
  { name: "slack-webhook", pattern: /\bhooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]{20,}/g },
  { name: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { name: "google-oauth", pattern: /\b(?:ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,}|1\/\/0[0-9A-Za-z_-]{30,})/g },
  { name: "stripe-key", pattern: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}/g },
  { name: "npm-token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: "pypi-token", pattern: /\bpypi-AgE[A-Za-z0-9_-]{50,}/g },
  { name: "huggingface-token", pattern: /\bhf_[A-Za-z0-9]{30,}/g },
  { name: "sendgrid-key", pattern: /\bSG\.[A-Za-z0-9_-]{16,100}\.[A-Za-z0-9_-]{16,}/g },
  { name: "groq-key", pattern: /\bgsk_[A-Za-z0-9]{40,}/g },
  { name: "xai-key", pattern: /\bxai-[A-Za-z0-9]{40,}/g },
  { name: "replicate-token", pattern: /\br8_[A-Za-z0-9]{30,}/g },
  { name: "digitalocean-token", pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  { name: "shopify-token", pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
  { name: "linear-key", pattern: /\blin_(?:api|oauth)_[A-Za-z0-9]{32,}/g },
  { name: "vault-token", pattern: /\bhv[sbr]\.[A-Za-z0-9_-]{24,}/g },
  { name: "databricks-token", pattern: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g },
  { name: "age-secret-key", pattern: /\bAGE-SECRET-KEY-1[0-9A-Z]{50,}/g },
  { name: "azure-storage-key", pattern: /\b(AccountKey=)([A-Za-z0-9+/=]{40,})/g, group: 2 },
  { name: "telegram-bot-token", pattern: /\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b/g },
  { name: "twilio-key", pattern: /\bSK[0-9a-f]{32}\b/g },
  { name: "mailgun-key", pattern: /\bkey-[0-9a-zA-Z]{32}\b/g },
  { name: "discord-token", pattern: /\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}/g },
  {
    name: "service-token",
    // tokens whose prefix names the service: Postman, Atlassian, Notion, Figma, Sentry, Grafana, Supabase, PlanetScale, Fly, Netlify, Doppler, Pulumi, Terraform, Tailscale, Cloudflare origin CA
    pattern: /\b(?:PMAK-[A-Za-z0-9-]{30,}|ATATT3[A-Za-z0-9_=-]{30,}|ntn_[A-Za-z0-9]{30,}|secret_[A-Za-z0-9]{40,}|figd_[A-Za-z0-9_-]{30,}|sntr[ysu]_[A-Za-z0-9+/=_-]{30,}|glsa_[A-Za-z0-9_]{30,}|glc_[A-Za-z0-9+/=_-]{30,}|sbp_[a-f0-9]{40}|pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{30,}|fo1_[A-Za-z0-9_-]{30,}|nfp_[A-Za-z0-9]{30,}|dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{30,}|pul-[a-f0-9]{40}|[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}|tskey-[a-z]+-[A-Za-z0-9]{10,}-[A-Za-z0-9]{20,}|v1\.0-[a-f0-9]{24}-[a-f0-9]{100,})/g,
  },
  { name: "webhook-url", pattern: /\b(?:discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{20,}|[a-z0-9-]{1,63}\.webhook\.office\.com\/[^\s"']{20,})/g },
  { name: "mapbox-token", pattern: /\bsk\.eyJ[A-Za-z0-9_-]{20,2048}\.[A-Za-z0-9_-]{10,}/g },
  { name: "service-token", pattern: /\b(?:pplx-[A-Za-z0-9]{40,}|fw_[A-Za-z0-9]{20,}|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|access_token\$production\$[a-z0-9]{16}\$[a-f0-9]{32}|AAAA[A-Za-z0-9_-]{7}:[A-Za-z0-9_-]{100,})/g },
  // signed links: Azure SAS, S3 and GCS presigned URLs, tokens in a query string
  { name: "url-signature", pattern: /([?&](?:sig|signature|X-Amz-Signature|X-Amz-Security-Token|X-Goog-Signature|access_token|token|api_key|apikey|key)=)([^&\s"'#]{16,})/gi, group: 2 },
  // the first value of a Cookie header, when it looks generated (long, with a digit)
  { name: "cookie", pattern: /\b((?:Set-)?Cookie["']?\s*:\s*["'`]?[^\r\n"'`=;]{0,256}=)(?![$<{%*])(?=[^;\s"'`]{0,256}[0-9])([^;\s"'`]{16,})/gi, group: 2 },
  // a key block in base64 (a Kubernetes secret's tls.key): "-----BEGIN" encoded
  { name: "private-key", pattern: /\bLS0tLS1CRUdJTi[A-Za-z0-9+/=]{20,}/g },
  { name: "heroku-key", pattern: /\bHRKU-[A-Za-z0-9_-]{20,}/g },
  { name: "azure-client-secret", pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g },
  // PuTTY key files: the private lines after their count
  { name: "private-key", pattern: /\b(Private-Lines:\s*\d+\s*)((?:[A-Za-z0-9+/]{8,}={0,2}\s*)+)/g, group: 2 },
  { name: "bonsai-token", pattern: /\bbonsai_[0-9a-f]{16}_[A-Za-z0-9_-]{43}/g },
  { name: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,1024}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,}/g },
  { name: "basic-auth", pattern: /\b((?:Proxy-)?Authorization["']?\s*[:=]\s*["']?Basic\s+)([A-Za-z0-9+/=._~-]{4,})/gi, group: 2 },
  { name: "bearer-token", pattern: /\b(Bearer\s+)([A-Za-z0-9._~+/=-]{16,})/gi, group: 2 },
  { name: "authorization-header", pattern: /\b((?:Proxy-)?Authorization["']?\s*[:=]\s*["']?(?:Token|Bot|Digest|token)?\s*)(?!Basic\b|Bearer\b)([^\s"',;]{12,})/gi, group: 2 },
  // curl -u user:password, --password=…, --token …, mysql -pSecret, sshpass -p …
  { name: "command-line-password", pattern: /(?<![\w-])((?:-u|--user)\s+["']?[^\s:"'/]{1,256}:)(?!\/\/)([^\s"']+)/g, group: 2 },
  {
    name: "command-line-password",
    pattern: new RegExp(String.raw`(?<![\w-])(--(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|access-token|auth-token)(?:=|\s+)["']?)${NOT_PLACEHOLDER}([^\s"']{4,})`, "gi"),
    group: 2,
  },
  { name: "command-line-password", pattern: /\b((?:mysql|mysqldump|mariadb)\b[^\n]{0,256}?\s-p)([^\s"']{4,})/g, group: 2 },
  { name: "command-line-password", pattern: /\b(sshpass\s+-p\s*["']?)([^\s"']+)/g, group: 2 },
  { name: "command-line-password", pattern: /\b((?:redis-cli\b[^\n]{0,256}?\s-a|docker\s+login\b[^\n]{0,256}?\s-p)\s+["']?)([^\s"']{4,})/g, group: 2 },
  { name: "command-line-password", pattern: /\b(echo\s+["']?)([^\s"'|]{4,})(?=["']?\s*\|\s*sudo\s+-S\b)/g, group: 2 },
  // a key as the user of a URL (a Sentry DSN: https://<key>@o1.ingest.sentry.io/2)
  { name: "url-credential", pattern: /\b([a-z][a-z0-9+.-]{0,30}:\/\/)((?=[A-Za-z0-9_-]{0,64}[0-9])[A-Za-z0-9_-]{20,64})(@)/gi, group: 2 },
  { name: "seed-phrase", pattern: /\b((?:mnemonic|seed[_ -]?phrase|recovery[_ -]?phrase|secret[_ -]?recovery[_ -]?phrase)["']?\s*[:=]\s*["']?)((?:[a-z]+ ){11,23}[a-z]+)/gi, group: 2 },
  // ~/.netrc: machine … login … password …
  { name: "netrc-password", pattern: /\b(login\s+\S+\s+password\s+)(\S+)/g, group: 2 },
  // scheme://user:password@host, the user may be empty and the password may hold a "/"
  { name: "url-password", pattern: /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@"']{0,256}:)([^\s@"']{1,256})(@)/gi, group: 2 },
  {
    name: "env-secret",
    // an .env line: an upper-case name that says what it holds, "=" with no space, a value
    pattern: new RegExp(String.raw`^(\s*(?:export\s+)?[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASS|PWD|CREDENTIALS?|AUTH|DSN)[A-Z0-9_]*=)${NOT_PLACEHOLDER}${NOT_LINK}(\S.*)$`, "gm"),
    group: 2,
  },
  {
    name: "secret-assignment",
    // password = "…", "api_key": "…", token: '…' — a quoted value with a digit, or a long one of mixed case ("same-origin" stays)
    pattern: new RegExp(`(?<![A-Za-z0-9_])(${SECRET_NAME}["']?\\s*[:=]\\s*)(["'])${NOT_PLACEHOLDER}${NOT_LINK}((?=[^"'\\s]{0,256}[0-9])[^"'\\s]{8,4096}?|(?=[^"'\\s]{0,256}[A-Z])(?=[^"'\\s]{0,256}[a-z])[^"'\\s]{16,4096}?)\\2`, "g"),
    group: 3,
  },
  {
    name: "secret-assignment",
    // passwd = 's3cr3t' — a password-like name takes a shorter quoted value, digit or not
    pattern: new RegExp(`(?<![A-Za-z0-9_])([A-Za-z0-9_.-]{0,40}?(?i:password|passwd|passphrase)["']?\\s*[:=]\\s*)(["'])${NOT_PLACEHOLDER}${NOT_LINK}([^"'\\s]{4,256}?)\\2`, "g"),
    group: 3,
  },
  {
    name: "secret-assignment",
    // password = hunter2 — an unquoted value only when it has a digit and is not a call or a path of names
    pattern: new RegExp(`(?<![A-Za-z0-9_])(${SECRET_NAME}\\s*[:=]\\s*)${NOT_PLACEHOLDER}${NOT_LINK}(?=[^\\s"'\`,;]{0,256}[0-9])([^\\s"'\`,;(){}\\[\\]]{6,4096})(?![(\\w])`, "g"),
    group: 2,
  },
];

/**
 * Compiles the user's extra patterns; a pattern that does not compile is refused with its text.
 * `^` and `$` match at the start and end of every line (and so of every string: strings are scanned
 * one per line block).
 */
export function extraRules(patterns: readonly string[]): RedactionRule[] {
  return patterns.map((source, index) => {
    try {
      return { name: `custom-${index + 1}`, pattern: new RegExp(source, "gm") };
    } catch (error) {
      throw new Error(`team.redactPatterns[${index}] is not a regular expression: ${(error as Error).message}`, { cause: error });
    }
  });
}
