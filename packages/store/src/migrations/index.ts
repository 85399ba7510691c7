import { migration001Initial } from "./001-initial";
import type { Migration } from "./types";

export type { Migration } from "./types";

/** Every migration in order; the last one's version is the schema this build writes. */
export const MIGRATIONS: readonly Migration[] = [migration001Initial];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
