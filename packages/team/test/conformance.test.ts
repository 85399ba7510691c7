/**
 * The store API's conformance suite (packages/store/src/conformance/), unchanged, on the team
 * archive: a private PostgreSQL server, a fresh database per test, sessions put in by a real push
 * (a local SQLite store imports the file, `pushSession` sends it through the archive's HTTP server
 * as a member of one project), read back through `ArchiveStore` for that member (the read path the
 * server's routes and the page run: test/one-read-path.test.ts), which names each session by its
 * key, project/person/id. An archive never
 * imports, writes, prunes or follows files: those capabilities are declared unsupported, and the
 * suite checks that each is refused with the read-only error. Every database also holds a session
 * of a project the member may not read, so a read that leaked it would fail the suite's counts and
 * prefixes.
 */
import fs from "node:fs";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { openStore } from "@bonsai/store";
import { describeSessionStoreConformance } from "@bonsai/store/conformance";
import { addPerson, addProject, ArchiveClient, archiveKey, ArchiveStore, authenticate, createArchiveServer, grant, listen, openArchiveDatabase, pushSession, receiveBatch, storePushSource } from "../src";
import { usePostgres } from "./archive-server";

const postgres = usePostgres();

/** a session the member must never see: same id prefix as the suite's own */
async function hiddenSession(pool: pg.Pool, adminToken: string): Promise<void> {
  const admin = await authenticate(pool, adminToken);
  const header = JSON.stringify({ type: "session", version: 3, id: "conf-prefix-hidden", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/elsewhere" });
  const entry = JSON.stringify({ type: "message", id: "hidden-e0", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "nothing tokenizer 数据库 weather" } });
  await receiveBatch(pool, admin, { project: "elsewhere", from: 0, entries: [entry], session: { sessionId: "conf-prefix-hidden", agent: "pi", title: null, cwd: "/elsewhere", header, startedAt: null } });
}

describeSessionStoreConformance(
  "PostgreSQL team archive (ArchiveStore)",
  async () => {
    const db = await openArchiveDatabase(postgres.freshDatabase());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-archive-conformance-"));
    const machine = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-archive-machine-"));
    const local = openStore({ path: path.join(machine, "bonsai.db"), writeThrough: false });
    let http: Server | undefined;
    const cleanup = async (): Promise<void> => {
      local.close();
      if (http) await new Promise((done) => http!.close(done));
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(machine, { recursive: true, force: true });
    };
    try {
      await addProject(db.pool, "conformance");
      await addProject(db.pool, "elsewhere");
      const { token } = await addPerson(db.pool, "reader", "member");
      await grant(db.pool, "reader", "conformance");
      await hiddenSession(db.pool, (await addPerson(db.pool, "root", "admin")).token);
      http = createArchiveServer({ pool: db.pool, log: () => {} });
      const address = await listen(http, "127.0.0.1", 0);
      const client = new ArchiveClient(`http://127.0.0.1:${address.port}`, token);
      const source = storePushSource(local);
      const load = async (file: string): Promise<string> => {
        const report = await local.importFile(file);
        if (!report.sessionId) throw new Error(`the local store did not import ${file}: ${report.message}`);
        await pushSession(source, report.sessionId, { client, project: "conformance" });
        // the archive names a session by its key, project/person/id (archive-identity.ts)
        return archiveKey({ project: "conformance", pushedBy: "reader", sessionId: report.sessionId });
      };
      return { store: new ArchiveStore(db.pool, await authenticate(db.pool, token)), dir, load, cleanup };
    } catch (error) {
      await cleanup();
      throw error;
    }
  },
  { capabilities: { import: false, write: false, writeThrough: false, prune: false, follow: false, events: false } },
);
