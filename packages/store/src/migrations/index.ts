import { migration001Initial } from "./001-initial";
import { migration002SplitEntryJson } from "./002-split-entry-json";
import { migration003DetachedSource } from "./003-detached-source";
import { migration004SourceJournal } from "./004-source-journal";
import { migration007SessionAgents } from "./007-session-agents";
import { migration008SessionTitles } from "./008-session-titles";
import { migration009StoredReads } from "./009-stored-reads";
import { migration010PlanIndexes } from "./010-plan-indexes";
import { migration011FileOps } from "./011-file-ops";
import { migration012IdTiers } from "./012-id-tiers";
import { migration013SkeletonCache } from "./013-skeleton-cache";
import { migration014SettingsRows } from "./014-settings-rows";
import { migration015SessionLocks } from "./015-session-locks";
import { migration016LineRepairs } from "./016-line-repairs";
import { migration017TitlesNotSummaries } from "./017-titles-not-summaries";
import { migration018TrigramIndex } from "./018-trigram-index";
import { migration019GitCheckpoints } from "./019-git-checkpoints";
import { migration020UndoneCompactions } from "./020-undone-compactions";
import { migration021UndoHistory } from "./021-undo-history";
import type { Migration } from "./types";

export type { Migration } from "./types";

/** Every migration in order; the last one's version is the schema this build writes. */
export const MIGRATIONS: readonly Migration[] = [
  migration001Initial,
  migration002SplitEntryJson,
  migration003DetachedSource,
  migration004SourceJournal,
  migration007SessionAgents,
  migration008SessionTitles,
  migration009StoredReads,
  migration010PlanIndexes,
  migration011FileOps,
  migration012IdTiers,
  migration013SkeletonCache,
  migration014SettingsRows,
  migration015SessionLocks,
  migration016LineRepairs,
  migration017TitlesNotSummaries,
  migration018TrigramIndex,
  migration019GitCheckpoints,
  migration020UndoneCompactions,
  migration021UndoHistory,
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
