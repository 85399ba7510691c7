/**
 * People, projects, grants and tokens: who may read which project. An admin reads every project;
 * a member reads the projects granted to them. `authenticate` turns a token into the principal
 * that every later call is checked against.
 */
import type pg from "pg";
import { ArchiveError } from "./errors";
import { namedQuery } from "./named-query";
import { makeToken, parseToken, tokenSecretMatches } from "./tokens";

export type Role = "admin" | "member";

export interface Principal {
  personId: number;
  name: string;
  role: Role;
  /** the projects this person may read (every project, for an admin) */
  projectIds: readonly number[];
  /**
   * what those projects hold, as of this call: their ids with the counters of migration 004, so that
   * an answer kept for the same text was made from the same sessions (answer-cache.ts)
   */
  readVersion: string;
  /** the id of the token this principal signed in with (a download works only with the token that asked for it) */
  tokenId: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

function checkName(kind: string, name: string): void {
  if (!NAME.test(name)) {
    throw new ArchiveError("bad-name", `${kind} names are 1-64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit: ${JSON.stringify(name)}`);
  }
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === "23505";
}

async function personId(pool: pg.Pool, name: string): Promise<number> {
  const row = (await pool.query<{ id: string }>("SELECT id FROM people WHERE name = $1", [name])).rows[0];
  if (!row) throw new ArchiveError("not-found", `no person named ${JSON.stringify(name)} in the archive`);
  return Number(row.id);
}

async function projectId(pool: pg.Pool, name: string): Promise<number> {
  const row = (await pool.query<{ id: string }>("SELECT id FROM projects WHERE name = $1", [name])).rows[0];
  if (!row) throw new ArchiveError("not-found", `no project named ${JSON.stringify(name)} in the archive`);
  return Number(row.id);
}

/** Adds a person and returns their first token (shown once). */
export async function addPerson(pool: pg.Pool, name: string, role: Role = "member"): Promise<{ personId: number; token: string; tokenId: string }> {
  checkName("person", name);
  let id: number;
  try {
    id = Number((await pool.query<{ id: string }>("INSERT INTO people (name, role) VALUES ($1, $2) RETURNING id", [name, role])).rows[0]?.id);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ArchiveError("exists", `a person named ${JSON.stringify(name)} already exists`);
    throw error;
  }
  const { token, tokenId } = await issueToken(pool, name);
  return { personId: id, token, tokenId };
}

export async function addProject(pool: pg.Pool, name: string): Promise<number> {
  checkName("project", name);
  try {
    return Number((await pool.query<{ id: string }>("INSERT INTO projects (name) VALUES ($1) RETURNING id", [name])).rows[0]?.id);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ArchiveError("exists", `a project named ${JSON.stringify(name)} already exists`);
    throw error;
  }
}

export async function grant(pool: pg.Pool, person: string, project: string): Promise<void> {
  const [p, q] = [await personId(pool, person), await projectId(pool, project)];
  await pool.query("INSERT INTO grants (person_id, project_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [p, q]);
}

export async function issueToken(pool: pg.Pool, person: string): Promise<{ token: string; tokenId: string }> {
  const id = await personId(pool, person);
  const made = await makeToken();
  await pool.query("INSERT INTO tokens (id, person_id, salt, hash) VALUES ($1, $2, $3, $4)", [made.id, id, made.salt, made.hash]);
  return { token: made.token, tokenId: made.id };
}

/**
 * Revokes one token (by its id, the part after `bonsai_`, or the whole token) or, given a person's
 * name, every token of that person. Returns how many were revoked.
 */
export async function revokeTokens(pool: pg.Pool, target: { tokenId: string } | { person: string }): Promise<number> {
  if ("person" in target) {
    const id = await personId(pool, target.person);
    return (await pool.query("UPDATE tokens SET revoked_at = now() WHERE person_id = $1 AND revoked_at IS NULL", [id])).rowCount ?? 0;
  }
  const tokenId = parseToken(target.tokenId)?.id ?? target.tokenId;
  const count = (await pool.query("UPDATE tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL", [tokenId])).rowCount ?? 0;
  if (count === 0) throw new ArchiveError("not-found", `no active token with id ${JSON.stringify(tokenId)}`);
  return count;
}

const UNAUTHORIZED = "the token is not valid for this archive (revoked, mistyped, or from another archive)";

/** The principal a token stands for; an unknown, malformed or revoked token is refused. */
export async function authenticate(pool: pg.Pool, token: string): Promise<Principal> {
  const parsed = parseToken(token);
  if (!parsed) throw new ArchiveError("unauthorized", UNAUTHORIZED);
  // one round trip: the token's row, its person, the projects they may read and those projects' counters
  const row = (
    await pool.query<{ salt: Buffer; hash: Buffer; person_id: string; name: string; role: Role; project_ids: string[]; versions: string[] }>(
      namedQuery(
        `SELECT t.salt, t.hash, p.id AS person_id, p.name, p.role, r.project_ids,
                ARRAY(SELECT coalesce(v.version, 0) FROM unnest(r.project_ids) AS q(id) LEFT JOIN project_versions v ON v.project_id = q.id ORDER BY q.id) AS versions
           FROM tokens t JOIN people p ON p.id = t.person_id,
                LATERAL (SELECT CASE WHEN p.role = 'admin' THEN ARRAY(SELECT id FROM projects ORDER BY id)
                                     ELSE ARRAY(SELECT project_id FROM grants WHERE person_id = p.id ORDER BY project_id) END AS project_ids) r
          WHERE t.id = $1 AND t.revoked_at IS NULL`,
        [parsed.id],
      ),
    )
  ).rows[0];
  if (!(await tokenSecretMatches(parsed.id, parsed.secret, row)) || !row) throw new ArchiveError("unauthorized", UNAUTHORIZED);
  const projectIds = row.project_ids.map(Number);
  const readVersion = projectIds.map((id, i) => `${id}.${row.versions[i] ?? 0}`).join(",");
  return { personId: Number(row.person_id), name: row.name, role: row.role, projectIds, readVersion, tokenId: parsed.id };
}

/** The project a principal may push to or read, by name; refused the same way whether it is missing or not granted. */
export async function projectFor(pool: pg.Pool, principal: Principal, name: string): Promise<number> {
  const row = (await pool.query<{ id: string }>("SELECT id FROM projects WHERE name = $1", [name])).rows[0];
  const id = row ? Number(row.id) : null;
  if (id === null || !principal.projectIds.includes(id)) {
    throw new ArchiveError("forbidden", `no project named ${JSON.stringify(name)} that ${principal.name} may use`);
  }
  return id;
}
