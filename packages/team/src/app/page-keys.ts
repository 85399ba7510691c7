/**
 * How the page names an archived session: by its project and its id, "alpha/2f1c…", so that one
 * session id pushed into two projects (a copied file, a fork) is two sessions in the page: its list
 * item, its open, every later read, its address. The app's own handlers run on the cache's copy,
 * which holds the session under its id alone: a key is split on the way in and the id in the
 * answers named with the key again on the way out. A bare id (an older address, a script) still
 * names the one session of that id the caller may read.
 */

/** the page's name of the session `sessionId` of `project` */
export function pageKey(project: string, sessionId: string): string {
  return `${project}/${sessionId}`;
}

/** a project name as the archive allows them (people.ts), then "/" and the id */
const KEY = /^([A-Za-z0-9][A-Za-z0-9._@-]{0,63})\/(.+)$/su;

/** The project and id a page key names; null for a name that is no key (a bare id). */
export function splitPageKey(name: string): { project: string; sessionId: string } | null {
  const m = KEY.exec(name);
  return m ? { project: m[1] as string, sessionId: m[2] as string } : null;
}

type Renamable = { sessionId?: unknown; id?: unknown; session?: unknown; skeleton?: unknown; sessions?: unknown };

/**
 * The app's answer `answer` (from the cache's copies), with each session id it names at its top, in
 * its `session`, `skeleton` or `sessions` (what-if), named as the page names it (`keys`: id -> key).
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
