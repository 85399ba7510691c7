/**
 * How a session in the archive is named: by its project, who pushed it and its id, as
 * "project/person/id". Project and person names hold no "/" (people.ts) and a pushed session id
 * holds none either (pushed-header.ts: the store's addressable ids), so the three parts are read
 * back without doubt. The page, the HTTP API, `--archive` and search all give this key; a reference
 * may also leave out the person ("project/id") or both ("id"), and its id may be a prefix, when
 * that still names one session the caller may read (archive-resolver.ts).
 */

/** what every archived session says about itself (its summary's `readOnly`), in the page, the CLI and the store API */
export const ARCHIVE_READ_ONLY = "a read-only copy in the team archive; export it to work on it";

export interface ArchiveIdentity {
  project: string;
  pushedBy: string;
  sessionId: string;
}

/** the key of a session of the archive: "project/person/id" */
export function archiveKey(identity: ArchiveIdentity): string {
  return `${identity.project}/${identity.pushedBy}/${identity.sessionId}`;
}

/** A reference to an archived session, split: the parts it names (the id may be a prefix). */
export interface ArchiveReference {
  project?: string;
  pushedBy?: string;
  id: string;
}

/** "project/person/id", "project/id" or "id" as its parts ("/" is in no part). */
export function parseArchiveReference(reference: string): ArchiveReference {
  const parts = reference.trim().split("/");
  if (parts.length >= 3) return { project: parts[0] as string, pushedBy: parts[1] as string, id: parts.slice(2).join("/") };
  if (parts.length === 2) return { project: parts[0] as string, id: parts[1] as string };
  return { id: parts[0] as string };
}
