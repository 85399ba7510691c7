/**
 * How the page names an archived session: by its key, "project/person/id" (archive-identity.ts),
 * so that one session id pushed into two projects, or by two people, is two sessions in the page:
 * its list item, its open, every later read, its address. The app's own handlers run on the
 * cache's copy, which the store holds under a store id of its own (session-cache.ts): a key is
 * resolved on the way in and the store id in the answers named with the key again on the way
 * out. A shorter reference ("project/id", a bare id) still names the one session of it the caller
 * may read.
 */

type Renamable = { sessionId?: unknown; id?: unknown; session?: unknown; skeleton?: unknown; sessions?: unknown };

/**
 * The app's answer `answer` (from the cache's copies), with each session id it names at its top, in
 * its `session`, `skeleton` or `sessions` (what-if), named as the page names it (`keys`: store id -> key).
 */
export function keyedAnswer<T>(answer: T, keys: ReadonlyMap<string, string>): T {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return answer;
  const rename = (value: unknown, field: "sessionId" | "id"): unknown => {
    if (typeof value !== "object" || value === null) return value;
    const own = (value as Renamable)[field];
    const key = typeof own === "string" ? keys.get(own) : undefined;
    return key === undefined ? value : { ...value, [field]: key };
  };
  const out = rename(answer, "sessionId") as Renamable;
  const patch: Renamable = {};
  if ("session" in out) patch.session = rename(out.session, "id");
  if ("skeleton" in out) patch.skeleton = rename(out.skeleton, "sessionId");
  if (Array.isArray(out.sessions)) patch.sessions = out.sessions.map((s: unknown) => rename(s, "sessionId"));
  return { ...out, ...patch } as T;
}
