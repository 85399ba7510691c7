import type { PoolClient } from "pg";

/** One schema step of the archive. `up` runs inside the migration run's transaction. */
export interface ArchiveMigration {
  /** the schema version after this step */
  version: number;
  name: string;
  up(client: PoolClient): Promise<void>;
}
