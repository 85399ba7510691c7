/**
 * The archive's first promise, tested against what PostgreSQL holds: every secret form of the
 * corpus, placed in every field of a pi, a Claude Code and a Codex session, imported by the real
 * store and pushed through the real push and HTTP server, is found nowhere in a `pg_dump` of the
 * archive; and what each push reported as redacted is exactly the markers the archive stores.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Server } from "node:http";
import { openStore, type SqliteSessionStore } from "@bonsai/store";
import { findPostgresBin } from "@bonsai/testkit/postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, addProject, ArchiveClient, createArchiveServer, findingsOf, grant, listen, openArchiveDatabase, pushSession, storePushSource, type ArchiveDatabase, type SessionPushReport } from "../src";
import { usePostgres } from "./archive-server";
import { forbiddenStrings, SECRET_FORMS } from "./secret-corpus";
import { claudeSession, codexSession, piSession } from "./secret-sessions";

const server = usePostgres();
let database: string;
let db: ArchiveDatabase;
let http: Server;
let client: ArchiveClient;
let store: SqliteSessionStore;
let dir: string;

beforeAll(async () => {
  database = server.freshDatabase();
  db = await openArchiveDatabase(database);
  http = createArchiveServer({ pool: db.pool, log: () => {} });
  const address = await listen(http, "127.0.0.1", 0);
  await addProject(db.pool, "alpha");
  const { token } = await addPerson(db.pool, "ada");
  await grant(db.pool, "ada", "alpha");
  client = new ArchiveClient(`http://127.0.0.1:${address.port}`, token);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-redaction-"));
  store = openStore({ path: path.join(dir, "bonsai.db") });
});
afterAll(async () => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
  await new Promise((resolve) => http.close(resolve));
  await db.close();
});

function pgDump(url: string): string {
  const found = findPostgresBin();
  if ("missing" in found) throw new Error(found.missing);
  const result = spawnSync(path.join(found.bin, "pg_dump"), ["--dbname", url, "--no-owner"], { encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`pg_dump failed: ${result.stderr}`);
  return result.stdout;
}

const MARKER = /\[REDACTED:([a-z0-9-]+)\]/g;

function markerCounts(texts: readonly (string | null)[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) for (const match of (text ?? "").matchAll(MARKER)) counts.set(match[1] as string, (counts.get(match[1] as string) ?? 0) + 1);
  return counts;
}

/** every text the archive keeps for one session as it was sent: its title, cwd and header, and each entry */
async function storedTexts(sessionId: string): Promise<(string | null)[]> {
  const session = (await db.pool.query<{ title: string | null; cwd: string | null; header: string }>("SELECT title, cwd, header FROM sessions WHERE session_id = $1", [sessionId])).rows;
  const entries = (await db.pool.query<{ entry: string }>("SELECT e.entry FROM entries e JOIN sessions s ON s.id = e.session_pk WHERE s.session_id = $1", [sessionId])).rows;
  return [...session.flatMap((s) => [s.title, s.cwd, s.header]), ...entries.map((e) => e.entry)];
}

const FORMATS = [
  { agent: "pi", file: piSession },
  { agent: "claude-code", file: claudeSession },
  { agent: "codex", file: codexSession },
] as const;

describe("a push stores no secret", () => {
  const pushed: { form: string; agent: string; sessionId: string; placements: number; dry: SessionPushReport; report: SessionPushReport }[] = [];

  beforeAll(async () => {
    for (const [index, form] of SECRET_FORMS.entries()) {
      for (const format of FORMATS) {
        const file = path.join(dir, `${format.agent}-${index}.jsonl`);
        const content = format.file(randomUUID(), form.text);
        fs.writeFileSync(file, content);
        // the places the text sits in the file (JSON kept inside a string, escaped twice, not counted)
        const placements = content.split(JSON.stringify(form.text).slice(1, -1)).length - 1;
        const imported = await store.importFile(file);
        if (!imported.sessionId) throw new Error(`${format.agent} session of ${form.name} was not imported: ${JSON.stringify(imported)}`);
        const sessionId = imported.sessionId;
        const dry = await pushSession(storePushSource(store), sessionId, { client, project: "alpha", dryRun: true });
        const report = await pushSession(storePushSource(store), sessionId, { client, project: "alpha" });
        pushed.push({ form: form.name, agent: format.agent, sessionId, placements, dry, report });
      }
    }
  }, 300_000);

  it(`pushes ${SECRET_FORMS.length} secret forms in every field of each format, and a pg_dump holds none of them`, () => {
    expect(SECRET_FORMS.length).toBeGreaterThanOrEqual(30);
    expect(pushed).toHaveLength(SECRET_FORMS.length * FORMATS.length);
    for (const p of pushed) expect(p.report.sent, `${p.agent}: ${p.form}`).toBeGreaterThan(0);
    const dump = pgDump(database);
    // as dumped (COPY escapes), and with every escape taken away
    const views = [dump, dump.replaceAll("\\", "")];
    const leaks = forbiddenStrings().filter((f) => views.some((view) => view.includes(f.text)));
    expect(leaks).toEqual([]);
    // the dump does hold the sessions: the placements are there, redacted
    expect(dump).toContain("please look at [REDACTED:");
  });

  it("reports per kind exactly the markers the archive stores, and a dry run reports the same", async () => {
    for (const p of pushed) {
      const stored = findingsOf(markerCounts(await storedTexts(p.sessionId)));
      expect(p.report.redacted, `${p.agent}: ${p.form}`).toEqual(stored);
      expect(p.dry.redacted, `${p.agent}: ${p.form}`).toEqual(stored);
      // every place the text sat in reached the archive, redacted
      expect(stored.reduce((sum, f) => sum + f.count, 0), `${p.agent}: ${p.form}`).toBeGreaterThanOrEqual(p.placements);
    }
  });

  it("leaves the session files as they were", () => {
    for (const [index, form] of SECRET_FORMS.entries()) {
      for (const format of FORMATS) expect(fs.readFileSync(path.join(dir, `${format.agent}-${index}.jsonl`), "utf8")).toContain(JSON.stringify(form.text).slice(1, -1));
    }
  });
});
