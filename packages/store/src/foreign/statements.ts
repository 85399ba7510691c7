/** Prepared statements of one database, prepared once per SQL text. */
import type Database from "better-sqlite3";

export class Statements {
  readonly #cache = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  get(text: string): Database.Statement {
    let s = this.#cache.get(text);
    if (!s) {
      s = this.db.prepare(text);
      this.#cache.set(text, s);
    }
    return s;
  }
}
