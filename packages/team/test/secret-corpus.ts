/**
 * Secret forms for the redaction tests: each a piece of text as it turns up in a session (a command,
 * a file's content, a header) and the strings that must not survive a push (the secret and a
 * distinctive core of it). All values are made up for these tests.
 */

export interface SecretForm {
  name: string;
  text: string;
  /** what must appear nowhere after redaction */
  secrets: string[];
}

const B64 = "MIIEpAIBAAKCAQEAq7BFUpkGp3+XQ9Zt5Yx1mQ2cH8vLr4Nw0eTz6bJkPuVa9sDf";
const B64_2 = "Qm9uc2FpVGVzdEtleUJvZHlMaW5lVHdvTm90QVJlYWxLZXlBdEFsbDAxMjM0NTY3";
const B64_3 = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtz";
const PGP_1 = "lQOYBGXyZ0IBCADq9vYtZ8cK3mN4pR7sT1uW2xY5zA6bC8dE0fG3hI9jK4lL7mN1";
const PGP_2 = "oP2qR5sT8uV0wX3yZ6aB9cD1eF4gH7iJ0kL3mN6oP9qR2sT5uV8wX1yZ4aB7cD0e";

export const SECRET_FORMS: readonly SecretForm[] = [
  { name: "anthropic key", text: "export ANTHROPIC_API_KEY=sk-ant-api03-Zq8xW2vN5mK7pL1rT4yH9jG3fD6sA0bC-eRuIoPlKjHgFdSaQwErTyUiOpAsDfGhJkLzXcVbNm1234567890abcdefABCDEFGHIJKLMN-AbCdEfAA", secrets: ["sk-ant-api03-Zq8xW2vN5mK7pL1rT4yH9jG3fD6sA0bC", "eRuIoPlKjHgFdSaQwErTyUiOp"] },
  { name: "anthropic key after an escaped newline", text: String.raw`printf "ok\nsk-ant-api03-Hh4Jj5Kk6Ll7Mm8Nn9Oo0Pp1Qq2Rr3Ss4Tt5Uu6Vv7Ww8Xx9Yy0Zz\n"`, secrets: ["Hh4Jj5Kk6Ll7Mm8Nn9Oo0Pp1Qq2Rr3Ss4Tt5Uu6"] },
  { name: "anthropic key after a real newline", text: "first line\nsk-ant-admin01-Qw3Er4Ty5Ui6Op7As8Df9Gh0Jk1Lz2Xc3Vb4Nm5Qw6Er7Ty8", secrets: ["Qw3Er4Ty5Ui6Op7As8Df9Gh0Jk1Lz2Xc3Vb4"] },
  { name: "openai project key", text: "OPENAI_API_KEY=sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12Wx34T3BlbkFJYz56Ab78Cd90Ef12Gh34Ij56", secrets: ["sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34", "T3BlbkFJYz56Ab78Cd90Ef12Gh34"] },
  { name: "openai key in code", text: 'client = OpenAI(api_key="sk-Xy9Wv8Ut7Sr6Qp5On4Ml3Kj2Ih1Gf0EdCbA9876543210zyx")', secrets: ["Xy9Wv8Ut7Sr6Qp5On4Ml3Kj2Ih1Gf0Ed"] },
  { name: "github classic token", text: "git clone https://ghp_R4nd0mT0k3nV4lu3F0rT3st1ng0nlyAbCdEf12@github.com/o/r.git", secrets: ["ghp_R4nd0mT0k3nV4lu3F0rT3st1ng0nlyAbCdEf12", "R4nd0mT0k3nV4lu3F0rT3st1ng"] },
  { name: "github fine-grained token", text: "GH_TOKEN: github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123", secrets: ["github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123"] },
  { name: "gitlab token", text: "curl --header 'PRIVATE-TOKEN: glpat-Xq7Ww3Ee9Rr1Tt5Yy2Uu8' https://gitlab.example.com/api/v4/projects", secrets: ["glpat-Xq7Ww3Ee9Rr1Tt5Yy2Uu8", "Xq7Ww3Ee9Rr1Tt5Yy2Uu8"] },
  { name: "aws access key id", text: "aws configure set aws_access_key_id AKIAQ3EXAMPLE7TESTKY", secrets: ["AKIAQ3EXAMPLE7TESTKY"] },
  {
    name: "aws credentials file",
    text: "[default]\naws_access_key_id = AKIAZ7TESTONLY4KEYID\naws_secret_access_key = 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\nregion = eu-west-1",
    secrets: ["AKIAZ7TESTONLY4KEYID", "Tq9+Vw3/Xy7zAb1Cd5Ef9Gh3Ij7Kl1Mn5Op9Qr3S", "Ab1Cd5Ef9Gh3Ij7Kl1Mn5"],
  },
  {
    name: "aws sts json",
    text: '{\n  "Credentials": {\n    "AccessKeyId": "ASIAX5TESTONLYSTSKEY",\n    "SecretAccessKey": "Lm4/Np8+Qr2St6Uv0Wx4Yz8Ab2Cd6Ef0Gh4Ij8Kl",\n    "SessionToken": "FwoGZXIvYXdzEJr//////////wEaDTestOnlySessionTokenValue0123456789abcdef",\n    "Expiration": "2026-01-01T00:00:00Z"\n  }\n}',
    secrets: ["ASIAX5TESTONLYSTSKEY", "Lm4/Np8+Qr2St6Uv0Wx4Yz8Ab2Cd6Ef0Gh4Ij8Kl", "Qr2St6Uv0Wx4Yz8Ab2Cd6", "TestOnlySessionTokenValue0123456789"],
  },
  { name: "aws secret in env", text: "AWS_SECRET_ACCESS_KEY=Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8Nn7Mm aws s3 ls", secrets: ["Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8Nn7Mm", "Vv5Uu4Tt3Ss2Rr1Qq0"] },
  { name: "rsa private key", text: `cat id_rsa\n-----BEGIN RSA PRIVATE KEY-----\n${B64}\n${B64_2}\n-----END RSA PRIVATE KEY-----\ndone`, secrets: [B64, B64_2, B64.slice(20, 44)] },
  { name: "private key cut off without its END line", text: `-----BEGIN PRIVATE KEY-----\n${B64_2}\n${B64.slice(0, 40)}`, secrets: [B64_2, B64.slice(0, 40), B64.slice(8, 30)] },
  { name: "openssh private key", text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${B64_3}\n${B64_2}\n-----END OPENSSH PRIVATE KEY-----`, secrets: [B64_3, B64_3.slice(10, 40)] },
  { name: "ec private key cut off", text: `Output (truncated):\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBtestOnlyEcKeyBody0123456789abcdefABCDEFoAoGCCqGSM49AwEHoUQDQgAE\n[... 40 more lines]`, secrets: ["MHcCAQEEIBtestOnlyEcKeyBody0123456789abcdef", "testOnlyEcKeyBody"] },
  {
    name: "pgp private key block",
    text: `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${PGP_1}\n${PGP_2}\n=Ab3D\n-----END PGP PRIVATE KEY BLOCK-----`,
    secrets: [PGP_1, PGP_2, PGP_1.slice(12, 40)],
  },
  { name: "basic authorization", text: "curl -H 'Authorization: Basic YWRtaW46c3VwZXJTZWNyZXRQYXNzd29yZDE5OTk=' https://api.example.com", secrets: ["YWRtaW46c3VwZXJTZWNyZXRQYXNzd29yZDE5OTk=", "c3VwZXJTZWNyZXRQYXNzd29yZDE5"] },
  { name: "bearer token", text: 'fetch(url, { headers: { Authorization: "Bearer tok_9f8e7d6c5b4a3210FEDCBA9876543210abcdefXYZ" } })', secrets: ["tok_9f8e7d6c5b4a3210FEDCBA9876543210abcdefXYZ", "5b4a3210FEDCBA9876543210"] },
  { name: "url password with an empty user", text: "REDIS_URL redis://:r3disPassw0rdOnlyForTests@cache.internal:6379/0", secrets: [":r3disPassw0rdOnlyForTests@", "r3disPassw0rdOnlyForTests"] },
  { name: "url password with a slash", text: "psql postgres://app:pa55/w0rd+With/Slash@db.internal:5432/prod", secrets: ["pa55/w0rd+With/Slash", "w0rd+With/Slash"] },
  { name: "mongodb url", text: "mongodb+srv://admin:M0ng0SecretPassTest42@cluster0.example.mongodb.net/app", secrets: ["M0ng0SecretPassTest42"] },
  { name: "slack bot token", text: "SLACK_BOT_TOKEN xoxb-2048123456789-2048987654321-AbCdEfGhIjKlMnOpQrStUvWx", secrets: ["xoxb-2048123456789-2048987654321-AbCdEfGhIjKlMnOpQrStUvWx", "AbCdEfGhIjKlMnOpQrStUvWx"] },
  { name: "slack webhook", text: "POST https://hooks.slack.com/services/T0TESTONLY/B0TESTONLY/Xx1Yy2Zz3Aa4Bb5Cc6Dd7Ee8F", secrets: ["T0TESTONLY/B0TESTONLY/Xx1Yy2Zz3Aa4Bb5Cc6Dd7Ee8F", "Xx1Yy2Zz3Aa4Bb5Cc6Dd7Ee8F"] },
  { name: "google api key", text: "const maps = 'AIzaSyD4testOnlyGoogleKey_0123456789abcd';", secrets: ["AIzaSyD4testOnlyGoogleKey_0123456789abcd", "testOnlyGoogleKey_0123"] },
  { name: "stripe live key", text: "stripe.api_key = sk_live_51TestOnlyStripeKeyAbCdEfGh0123456789", secrets: ["sk_live_51TestOnlyStripeKeyAbCdEfGh0123456789", "TestOnlyStripeKeyAbCdEfGh"] },
  { name: "npm token", text: "//registry.npmjs.org/:_authToken=npm_TestOnlyNpmToken0123456789abcdefGHIJ", secrets: ["npm_TestOnlyNpmToken0123456789abcdefGHIJ", "TestOnlyNpmToken0123456789"] },
  { name: "jwt", text: "token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ0ZXN0LW9ubHktdXNlciIsImlhdCI6MTcwMDAwMDAwMH0.Zm9vYmFyU2lnbmF0dXJlVGVzdE9ubHkxMjM0NTY", secrets: ["eyJzdWIiOiJ0ZXN0LW9ubHktdXNlciIsImlhdCI6MTcwMDAwMDAwMH0", "Zm9vYmFyU2lnbmF0dXJlVGVzdE9ubHkxMjM0NTY"] },
  { name: "dotenv password", text: "DATABASE_PASSWORD=Hunter2TestOnly!Pass\nDEBUG=1", secrets: ["Hunter2TestOnly!Pass"] },
  { name: "json password field", text: '{"user": "deploy", "password": "CorrectHorseBatteryStapleTest"}', secrets: ["CorrectHorseBatteryStapleTest"] },
  { name: "yaml client secret", text: "oauth:\n  client_id: my-app\n  client_secret: 9TestOnlyClientSecretValue7x", secrets: ["9TestOnlyClientSecretValue7x"] },
  { name: "huggingface token", text: "huggingface-cli login --token hf_TestOnlyHuggingFaceToken0123456789ab", secrets: ["hf_TestOnlyHuggingFaceToken0123456789ab", "TestOnlyHuggingFaceToken0123"] },
  { name: "sendgrid key", text: "SENDGRID=SG.TestOnlySendgrid01.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg", secrets: ["SG.TestOnlySendgrid01.AbCdEfGhIjKlMnOpQrStUvWxYz", "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg"] },
  { name: "bonsai token", text: `BONSAI_TOKEN bonsai_0123456789abcdef_${"Q".repeat(20)}TestOnlyBonsaiToken0123`, secrets: [`${"Q".repeat(20)}TestOnlyBonsaiToken0123`] },
  { name: "age secret key", text: "# created: 2026-01-01\nAGE-SECRET-KEY-1QTESTONLYAGEKEY0123456789ABCDEFGHJKLMNPQRSTUVWXYZ023456789ACDE", secrets: ["AGE-SECRET-KEY-1QTESTONLYAGEKEY0123456789", "TESTONLYAGEKEY0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"] },
  { name: "azure storage connection string", text: "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=TestOnlyAzureKey0123456789abcdefABCDEF+/0123456789abcdefghij==;EndpointSuffix=core.windows.net", secrets: ["TestOnlyAzureKey0123456789abcdefABCDEF+/0123456789abcdefghij=="] },
  { name: "vault token", text: "VAULT_TOKEN hvs.CAESITestOnlyVaultToken0123456789abcdefGh", secrets: ["hvs.CAESITestOnlyVaultToken0123456789abcdefGh", "TestOnlyVaultToken0123456789"] },
  { name: "databricks token", text: "DATABRICKS dapi0123456789abcdef0123456789abcdef", secrets: ["dapi0123456789abcdef0123456789abcdef"] },
  { name: "double-escaped json in a log", text: String.raw`log: {\"msg\":\"config\",\"key\":\"sk-ant-api03-DblEsc0123456789abcdefABCDEFghijklmnopQRSTUV\"}`, secrets: ["DblEsc0123456789abcdefABCDEFghijklmnop"] },
  { name: "url password in escaped json text", text: String.raw`{"url":"https:\/\/deploy:Esc4pedSlashPassTest@api.example.com\/v1"`, secrets: ["Esc4pedSlashPassTest"] },
  { name: "token with a unicode escape", text: String.raw`body: "ghp_Un1codeEscapedTokenTestOnly0123456789"`, secrets: ["Un1codeEsc"] },
  { name: "azure sas link", text: "az storage blob download --url 'https://acct.blob.core.windows.net/c/b.bin?sv=2022-11-02&se=2026-01-01&sr=b&sp=r&sig=TestOnlySasSignature0123456789abcdefGHIJ%3D'", secrets: ["TestOnlySasSignature0123456789abcdefGHIJ"] },
  { name: "cookie header", text: "curl -H 'Cookie: session=TestOnlySessionCookie0123456789abcdef; theme=dark' https://app.example.com", secrets: ["TestOnlySessionCookie0123456789abcdef"] },
  { name: "discord webhook", text: "POST https://discord.com/api/webhooks/123456789012345678/TestOnlyDiscordWebhookToken_0123456789abcdef", secrets: ["TestOnlyDiscordWebhookToken_0123456789abcdef"] },
  { name: "short password in a connection flag", text: "PGPASSWORD=pg4test psql -h db -U app", secrets: ["pg4test"] },
  { name: "django secret key", text: "SECRET_KEY = 'django-insecure-TestOnly0123456789abcdef+ghij'", secrets: ["TestOnly0123456789abcdef"] },
  { name: "key block in base64 (kubernetes secret)", text: `data:\n  tls.key: ${Buffer.from(`-----BEGIN PRIVATE KEY-----\n${B64_2}\n-----END PRIVATE KEY-----`).toString("base64")}`, secrets: [Buffer.from(`-----BEGIN PRIVATE KEY-----\n${B64_2}\n-----END PRIVATE KEY-----`).toString("base64").slice(40, 80)] },
  { name: "google refresh token", text: '{"refresh_token": "1//0gTestOnlyGoogleRefreshToken0123456789abcdefGHIJ"}', secrets: ["TestOnlyGoogleRefreshToken0123456789"] },
  { name: "sentry dsn", text: "SENTRY_DSN https://0a1b2c3d4e5f60718293a4b5c6d7e8f9@o123.ingest.sentry.io/456", secrets: ["0a1b2c3d4e5f60718293a4b5c6d7e8f9"] },
  { name: "short quoted password", text: "conn = connect(user='app', passwd='s3cr3t!')", secrets: ["s3cr3t!"] },
  { name: "redis and docker passwords", text: "redis-cli -h cache -a R3disCliArg0nly ping && docker login -u ci -p D0ckerLoginArg0nly registry.example.com", secrets: ["R3disCliArg0nly", "D0ckerLoginArg0nly"] },
  { name: "password piped to sudo", text: "echo 'Sud0PipeTestOnly' | sudo -S systemctl restart app", secrets: ["Sud0PipeTestOnly"] },
  { name: "wallet seed phrase", text: 'mnemonic: "legal winner thank year wave sausage worth useful legal winner thank yellow"', secrets: ["wave sausage worth useful"] },
  { name: "token in coloured terminal output", text: "\u001b[1m\u001b[32mghp_C0l0uredT3rminalT0kenTestOnly0123456\u001b[0m printed by gh auth token", secrets: ["C0l0uredT3rminalT0kenTestOnly"] },
  { name: "password in html-escaped json", text: "<pre>{&quot;db_password&quot;: &quot;HtmlEsc4pedPass&quot;}</pre>", secrets: ["HtmlEsc4pedPass"] },
  { name: "curl user and password", text: "curl -u deploy:CurlTestOnlyPass42 https://ci.example.com/api", secrets: ["CurlTestOnlyPass42"] },
  { name: "password flag", text: "psql --host db --password=FlagTestOnlyPw77 --username app", secrets: ["FlagTestOnlyPw77"] },
  { name: "netrc", text: "machine api.example.com\n  login deploy\n  password NetrcTestOnlyPass9", secrets: ["NetrcTestOnlyPass9"] },
  { name: "mysql password argument", text: "mysql -h db -u root -pMysqlTestOnly55 app < dump.sql", secrets: ["MysqlTestOnly55"] },
  { name: "secret as a json key", text: '{"sk-ant-api03-KeyAsKeyTestOnly0123456789abcdefABCDEFgh": {"scope": "all"}}', secrets: ["KeyAsKeyTestOnly0123456789abcdef"] },
  {
    name: "gcp service account json",
    text: JSON.stringify({ type: "service_account", project_id: "demo", private_key_id: "0123456789abcdef0123456789abcdef01234567", private_key: `-----BEGIN PRIVATE KEY-----\n${B64_3}\n${B64}\n-----END PRIVATE KEY-----\n` }),
    secrets: [B64_3.slice(4, 40), B64.slice(4, 40)],
  },
  { name: "notion integration secret", text: "NOTION secret_TestOnlyNotionIntegrationSecret0123456789abcdefgh", secrets: ["TestOnlyNotionIntegrationSecret0123456789"] },
];

/** Every string that must not appear in a dump: each secret, raw and as JSON writes it. */
export function forbiddenStrings(forms: readonly SecretForm[] = SECRET_FORMS): { form: string; text: string }[] {
  const out: { form: string; text: string }[] = [];
  for (const form of forms) {
    for (const secret of form.secrets) {
      out.push({ form: form.name, text: secret });
      const escaped = JSON.stringify(secret).slice(1, -1);
      if (escaped !== secret) out.push({ form: form.name, text: escaped });
      const slashEscaped = secret.replaceAll("/", "\\/");
      if (slashEscaped !== secret) out.push({ form: form.name, text: slashEscaped });
    }
  }
  return out;
}
