/**
 * Sign-in benchmark (`pnpm bench sign-in`): what a refused sign-in costs, through HTTP on a real
 * archive server (a private PostgreSQL): a wrong secret for an existing token id, an id that no token
 * has, and a revoked token, each 40 times (GET /api/me), with the scrypt derivations counted. The
 * three should take the same time, so that the time does not tell which ids exist; a valid token's
 * later calls, which skip scrypt, are shown beside them.
 */
import { markdownTable, median } from "@bonsai/testkit";
import { startPostgres } from "@bonsai/testkit/postgres";
import { addPerson, createArchiveServer, listen, openArchiveDatabase, revokeTokens, shutdownGracefully } from "../src/index";
import { scryptDerivations } from "../src/tokens";

const TRIES = 40;
const cluster = await startPostgres();
try {
  const db = await openArchiveDatabase(cluster.createDatabase("signinbench"));
  const valid = await addPerson(db.pool, "valid", "member");
  const revoked = await addPerson(db.pool, "revoked", "member");
  await revokeTokens(db.pool, { person: "revoked" });
  // no limit in the way: every attempt reaches the check
  const server = createArchiveServer({ pool: db.pool, log: () => undefined, signInLimit: { maxFailures: 1_000_000 } });
  const { port } = await listen(server, "127.0.0.1", 0);
  const url = `http://127.0.0.1:${port}/api/me`;
  const wrongSecret = `${valid.token.slice(0, "bonsai_".length + 16)}_${"B".repeat(43)}`;
  const unknownId = (i: number): string => `bonsai_${(0xf000 + i).toString(16).padStart(16, "0")}_${"A".repeat(43)}`;
  const time = async (token: (i: number) => string): Promise<{ ms: number[]; derivations: number }> => {
    const before = scryptDerivations();
    const ms: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      const t0 = performance.now();
      await (await fetch(url, { headers: { authorization: `Bearer ${token(i)}` } })).arrayBuffer();
      ms.push(performance.now() - t0);
    }
    return { ms, derivations: scryptDerivations() - before };
  };
  await time(() => valid.token); // warm: connections, and the valid secret verified once
  const rows: string[][] = [];
  for (const [name, token] of [
    ["wrong secret, existing id", () => wrongSecret],
    ["unknown id", unknownId],
    ["revoked token", () => revoked.token],
    ["valid token (verified before)", () => valid.token],
  ] as const) {
    const { ms, derivations } = await time(token);
    const sorted = [...ms].sort((a, b) => a - b);
    rows.push([name, `${median(ms).toFixed(1)} ms`, `${(sorted[Math.floor(sorted.length * 0.9)] as number).toFixed(1)} ms`, (derivations / TRIES).toFixed(2)]);
  }
  console.log(markdownTable(["sign-in", "median", "p90", "scrypt per call"], rows));
  await shutdownGracefully(server, 0);
  await db.close();
} finally {
  cluster.stop();
}
