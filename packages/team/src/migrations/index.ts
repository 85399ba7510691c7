import { migration001PeopleAndSessions } from "./001-people-and-sessions";
import { migration002WordPairs } from "./002-word-pairs";
import { migration003OpenedSessions } from "./003-opened-sessions";
import { migration004ProjectVersions } from "./004-project-versions";
import { migration005AmnesiaRows } from "./005-amnesia-rows";
import { migration006GzippedOpenAnswers } from "./006-gzipped-open-answers";
import { migration007ArchiveIdentity } from "./007-archive-identity";
import { migration008SessionCommits } from "./008-session-commits";
import type { ArchiveMigration } from "./types";

export type { ArchiveMigration } from "./types";

/** Every archive migration in order; the last one's version is the schema this build writes. */
export const ARCHIVE_MIGRATIONS: readonly ArchiveMigration[] = [migration001PeopleAndSessions, migration002WordPairs, migration003OpenedSessions, migration004ProjectVersions, migration005AmnesiaRows, migration006GzippedOpenAnswers, migration007ArchiveIdentity, migration008SessionCommits];

export const ARCHIVE_SCHEMA_VERSION = ARCHIVE_MIGRATIONS[ARCHIVE_MIGRATIONS.length - 1]?.version ?? 0;
