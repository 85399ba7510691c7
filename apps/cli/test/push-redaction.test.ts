/**
 * What `bonsai push` says it redacted, through the built CLI against a real archive: the dry run
 * and the push name each kind and count, and those counts are the markers the archive's database
 * holds, with none of the secrets in it (a Claude Code session, whose original lines are kept).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBonsai, startTestArchive, type TestArchive } from "./team-archive";

let archive: TestArchive;
let dir: string;
let token: string;
let database = "";

function ok(args: string[], env: Record<string, string> = {}): string {
  const r = runBonsai(dir, database, args, env);
  if (r.code !== 0) throw new Error(`bonsai ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-push-redaction-"));
  archive = await startTestArchive((db) => {
    database = db;
    ok(["team", "project", "add", "alpha"]);
    token = (JSON.parse(ok(["team", "user", "add", "ada", "--json"])) as { token: string }).token;
    ok(["team", "grant", "ada", "alpha"]);
  });
}, 120_000);

afterAll(async () => {
  await archive?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const SECRETS = {
  anthropic: "sk-ant-api03-CliTestOnly0123456789abcdefABCDEFghijklmnop",
  awsSecret: "Cl1TestOnly/AwsSecretKey+0123456789abcdef",
  ticket: "ACME-424242",
  redis: "r3disCliOnlyPassword",
};

function claudeFile(): string {
  const base = { isSidechain: false, userType: "external", cwd: "/home/dev/app", sessionId: "5f0c1d2e-0000-4000-8000-00000000c11a", version: "2.1.80", gitBranch: "main", timestamp: "2026-03-20T17:07:35.000Z" };
  const lines = [
    { ...base, parentUuid: null, type: "user", message: { role: "user", content: `deploy it\n${SECRETS.anthropic}\nticket ${SECRETS.ticket}` }, uuid: "00000000-0000-4000-8000-000000000001" },
    {
      ...base,
      parentUuid: "00000000-0000-4000-8000-000000000001",
      type: "assistant",
      message: { model: "claude-opus-4-6", id: "msg_01", type: "message", role: "assistant", content: [{ type: "tool_use", id: "toolu_01", name: "Bash", input: { command: `redis-cli -u redis://:${SECRETS.redis}@cache:6379 ping`, [SECRETS.anthropic]: 1 } }], stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
      uuid: "00000000-0000-4000-8000-000000000002",
    },
    { ...base, parentUuid: "00000000-0000-4000-8000-000000000002", type: "user", message: { role: "user", content: [{ tool_use_id: "toolu_01", type: "tool_result", content: `[default]\naws_secret_access_key = ${SECRETS.awsSecret}` }] }, uuid: "00000000-0000-4000-8000-000000000003" },
  ];
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

async function stored(): Promise<string> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const sessions = await client.query<{ t: string }>("SELECT concat_ws(E'\\n', title, cwd, header) AS t FROM sessions");
    const entries = await client.query<{ t: string }>("SELECT entry AS t FROM entries");
    return [...sessions.rows, ...entries.rows].map((r) => r.t).join("\n");
  } finally {
    await client.end();
  }
}

describe("bonsai push reports what it redacted", () => {
  it("names each kind and count in the dry run and the push, and the archive holds exactly those markers and no secret", async () => {
    const data = path.join(dir, "data");
    const file = path.join(dir, "claude.jsonl");
    fs.writeFileSync(file, claudeFile());
    ok(["import", file, "--data-dir", data]);
    ok(["config", "set", "team.redactPatterns", "ACME-[0-9]{6}", "--data-dir", data]);
    const env = { BONSAI_TOKEN: token };
    const dry = ok(["push", "--all", "--dry-run", "--to", archive.url, "--project", "alpha", "--data-dir", data], env);
    expect(await stored()).toBe("");
    const pushed = ok(["push", "--all", "--to", archive.url, "--project", "alpha", "--data-dir", data], env);
    const text = await stored();
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    const markers = new Map<string, number>();
    for (const m of text.matchAll(/\[REDACTED:([a-z0-9-]+)\]/g)) markers.set(m[1] as string, (markers.get(m[1] as string) ?? 0) + 1);
    const total = [...markers.values()].reduce((a, b) => a + b, 0);
    const kinds = [...markers].sort(([a], [b]) => a.localeCompare(b)).map(([kind, count]) => `${kind} x${count}`).join(", ");
    expect(markers.get("anthropic-key")).toBeGreaterThan(0);
    expect(markers.get("aws-secret-key")).toBeGreaterThan(0);
    expect(markers.get("url-password")).toBeGreaterThan(0);
    expect(markers.get("custom-1")).toBeGreaterThan(0);
    expect(pushed).toMatch(new RegExp(`archive had 0, sent 3; redacted ${total} secrets: ${kinds.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n$`));
    expect(dry).toContain(`would send 3; would redact ${total} secrets: ${kinds}\n`);
    expect(fs.readFileSync(file, "utf8")).toContain(SECRETS.anthropic);
  }, 120_000);
});
