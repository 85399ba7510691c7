import type Database from "better-sqlite3";

/** One schema step. `up` runs inside the open transaction of the migration run; it must not commit. */
export interface Migration {
  /** the PRAGMA user_version after this step */
  version: number;
  name: string;
  up(db: Database.Database): void;
}
