/**
 * One private PostgreSQL server per test file (packages/testkit), and a fresh database per test
 * that wants one.
 */
import { startPostgres, type PostgresCluster } from "@bonsai/testkit/postgres";
import { afterAll, beforeAll } from "vitest";

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
