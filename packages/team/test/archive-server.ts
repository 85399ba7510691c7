/**
 * One private PostgreSQL server per test file (packages/testkit), and a fresh database per test
 * that wants one.
 */
import { startPostgres, type PostgresCluster } from "@bonsai/testkit/postgres";
import type { Server } from "node:http";
import { afterAll, beforeAll } from "vitest";
import { addPerson, addProject, createArchiveServer, grant, listen, openArchiveDatabase, type ArchiveDatabase } from "../src";

let cluster: PostgresCluster | undefined;
let databases = 0;

export function usePostgres(): { freshDatabase(): string } {
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(() => {
    cluster?.stop();
  });
  return {
    freshDatabase() {
      if (!cluster) throw new Error("the PostgreSQL server did not start");
      databases += 1;
      return cluster.createDatabase(`t${process.pid}_${databases}`);
    },
  };
}

/**
 * An archive served over HTTP on a fresh database with two people: ada may read and push the
 * project alpha, bob the project beta. `stop` closes the server and the database.
 */
export interface TwoPeopleArchive {
  db: ArchiveDatabase;
  http: Server;
  url: string;
  adaToken: string;
  bobToken: string;
  stop(): Promise<void>;
}

export async function startTwoPeopleArchive(database: string, log: (line: string) => void = () => undefined): Promise<TwoPeopleArchive> {
  const db = await openArchiveDatabase(database);
  const http = createArchiveServer({ pool: db.pool, log });
  const url = `http://127.0.0.1:${(await listen(http, "127.0.0.1", 0)).port}`;
  await addProject(db.pool, "alpha");
  await addProject(db.pool, "beta");
  const adaToken = (await addPerson(db.pool, "ada")).token;
  const bobToken = (await addPerson(db.pool, "bob")).token;
  await grant(db.pool, "ada", "alpha");
  await grant(db.pool, "bob", "beta");
  const stop = async (): Promise<void> => {
    await new Promise((resolve) => http.close(resolve));
    await db.close();
  };
  return { db, http, url, adaToken, bobToken, stop };
}
