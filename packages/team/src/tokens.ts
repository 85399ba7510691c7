/**
 * Sign-in tokens. A token is `bonsai_<id>_<secret>`: the id finds the row, the secret is checked
 * against a salted scrypt hash; the secret itself is never stored and is shown once, when made.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (secret: string, salt: Buffer, length: number) => Promise<Buffer>;

const HASH_BYTES = 32;
const TOKEN_PATTERN = /^bonsai_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface NewToken {
  id: string;
  /** the whole token, to show once */
  token: string;
  salt: Buffer;
  hash: Buffer;
}

export async function makeToken(): Promise<NewToken> {
  const id = randomBytes(8).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, HASH_BYTES);
  return { id, token: `bonsai_${id}_${secret}`, salt, hash };
}

/** The id and secret of a token, or null for anything that is not one. */
export function parseToken(token: string): { id: string; secret: string } | null {
  const match = TOKEN_PATTERN.exec(token.trim());
  return match ? { id: match[1] as string, secret: match[2] as string } : null;
}

let derived = 0;

/** how many secrets this process has put through scrypt (the work a sign-in costs; for tests and benches) */
export const scryptDerivations = (): number => derived;

export async function secretMatches(secret: string, salt: Buffer, hash: Buffer): Promise<boolean> {
  derived++;
  const candidate = await scryptAsync(secret, salt, HASH_BYTES);
  return candidate.length === hash.length && timingSafeEqual(candidate, hash);
}

/**
 * Secrets that already matched their stored scrypt hash in this process, kept as a SHA-256 digest
 * next to that hash, so that a signed-in client's next calls cost a hash, not a scrypt (which takes
 * tens of milliseconds of CPU and would bound a server to a few dozen calls a second). The token's
 * row is still read on every call, so a revoked token is refused at once, in every process.
 */
const verified = new Map<string, { digest: Buffer; hash: Buffer }>();
const VERIFIED_MAX = 1000;

/** whether `token`'s secret already matched its stored hash in this process (a hash's work; the row is still read by `authenticate`) */
export function alreadyVerified(token: string): boolean {
  const parsed = parseToken(token);
  const known = parsed === null ? undefined : verified.get(parsed.id);
  return parsed !== null && known !== undefined && timingSafeEqual(known.digest, createHash("sha256").update(parsed.secret).digest());
}

/** a hash no secret matches, checked when a token's id is unknown or revoked: the same scrypt work as a wrong secret, so the time does not tell which ids exist */
const NO_TOKEN = { salt: randomBytes(16), hash: randomBytes(HASH_BYTES) };

/**
 * Whether `secret` is the token `tokenId`'s, `stored` its row's salt and hash (undefined: no such
 * active token). Every path does one scrypt, or the cached hash of a secret verified before.
 */
export async function tokenSecretMatches(tokenId: string, secret: string, stored: { salt: Buffer; hash: Buffer } | undefined): Promise<boolean> {
  const { salt, hash } = stored ?? NO_TOKEN;
  const matches = await secretMatchesCached(tokenId, secret, salt, hash);
  return stored !== undefined && matches;
}

async function secretMatchesCached(tokenId: string, secret: string, salt: Buffer, hash: Buffer): Promise<boolean> {
  const digest = createHash("sha256").update(secret).digest();
  const known = verified.get(tokenId);
  if (known && known.hash.equals(hash) && timingSafeEqual(known.digest, digest)) return true;
  if (!(await secretMatches(secret, salt, hash))) return false;
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
  verified.set(tokenId, { digest, hash: Buffer.from(hash) });
  return true;
}
