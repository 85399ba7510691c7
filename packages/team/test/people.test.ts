import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, addProject, ArchiveError, authenticate, grant, issueToken, openArchiveDatabase, projectFor, revokeTokens, type ArchiveDatabase } from "../src";
import { usePostgres } from "./archive-server";

const server = usePostgres();
let db: ArchiveDatabase;

beforeAll(async () => {
  db = await openArchiveDatabase(server.freshDatabase());
});
afterAll(async () => {
  await db.close();
});

async function refusal(promise: Promise<unknown>): Promise<ArchiveError> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof ArchiveError)) throw new Error(`expected an ArchiveError, got ${String(error)}`);
  return error;
}

describe("people, projects and tokens", () => {
  it("keeps only a salted hash of a token, and the token signs its person in", async () => {
    const { token } = await addPerson(db.pool, "ada", "member");
    expect(token).toMatch(/^bonsai_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const secret = token.split("_").slice(2).join("_");
    const rows = await db.pool.query("SELECT * FROM tokens");
    expect(JSON.stringify(rows.rows)).not.toContain(secret);
    for (const row of rows.rows as { salt: Buffer; hash: Buffer }[]) {
      expect(row.hash.toString("latin1")).not.toContain(secret);
      expect(row.salt.length).toBe(16);
    }
    const principal = await authenticate(db.pool, token);
    expect(principal).toMatchObject({ name: "ada", role: "member", projectIds: [] });
  });

  it("gives a member the granted projects only, and an admin every project", async () => {
    const alpha = await addProject(db.pool, "alpha");
    const beta = await addProject(db.pool, "beta");
    const { token: member } = await addPerson(db.pool, "bob");
    const { token: admin } = await addPerson(db.pool, "root", "admin");
    await grant(db.pool, "bob", "alpha");
    await grant(db.pool, "bob", "alpha");
    const bob = await authenticate(db.pool, member);
    expect(bob.projectIds).toEqual([alpha]);
    expect(await projectFor(db.pool, bob, "alpha")).toBe(alpha);
    const denied = await refusal(projectFor(db.pool, bob, "beta"));
    const missing = await refusal(projectFor(db.pool, bob, "gamma"));
    expect(denied.code).toBe("forbidden");
    // a project one may not see and one that does not exist are refused alike
    expect(denied.message.replace("beta", "X")).toBe(missing.message.replace("gamma", "X"));
    const root = await authenticate(db.pool, admin);
    expect(root.projectIds).toEqual(expect.arrayContaining([alpha, beta]));
  });

  it("refuses a revoked, mistyped or forged token with one sentence", async () => {
    await addPerson(db.pool, "cy");
    const { token: second, tokenId } = await issueToken(db.pool, "cy");
    await authenticate(db.pool, second);
    await revokeTokens(db.pool, { tokenId });
    const revoked = await refusal(authenticate(db.pool, second));
    expect(revoked.code).toBe("unauthorized");
    const forged = second.slice(0, -4) + "AAAA";
    expect((await refusal(authenticate(db.pool, forged))).code).toBe("unauthorized");
    expect((await refusal(authenticate(db.pool, "hello"))).code).toBe("unauthorized");
    expect((await refusal(revokeTokens(db.pool, { tokenId }))).code).toBe("not-found");
  });

  it("revokes every token of a person at once", async () => {
    const { token: first } = await addPerson(db.pool, "dee");
    const { token: other } = await issueToken(db.pool, "dee");
    expect(await revokeTokens(db.pool, { person: "dee" })).toBe(2);
    for (const token of [first, other]) expect((await refusal(authenticate(db.pool, token))).code).toBe("unauthorized");
  });

  it("refuses bad and duplicate names with a sentence", async () => {
    expect((await refusal(addPerson(db.pool, "../etc"))).code).toBe("bad-name");
    expect((await refusal(addProject(db.pool, ""))).code).toBe("bad-name");
    await addProject(db.pool, "dup");
    expect((await refusal(addProject(db.pool, "dup"))).message).toBe('a project named "dup" already exists');
    expect((await refusal(grant(db.pool, "nobody", "dup"))).code).toBe("not-found");
  });
});
