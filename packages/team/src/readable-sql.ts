/**
 * SQL over the sessions a caller may read. Every read of the archive starts from the one rule of
 * access, `s.project_id = ANY($1)` with the caller's projects (an admin's: every project) as $1, and
 * adds its own conditions and parameters here, so that no read can forget or misspell the rule.
 * `s` is the sessions table in every query that uses it.
 */
import type { Principal } from "./people";

export class ReadableSessionsSql {
  /** the query's parameters: the caller's projects first, then those given and added */
  readonly params: unknown[];
  private readonly conditions = ["s.project_id = ANY($1::bigint[])"];

  /** `more` become $2, $3, … in order */
  constructor(principal: Principal, ...more: unknown[]) {
    this.params = [principal.projectIds, ...more];
  }

  /** `value` as the next parameter: its placeholder */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** one more condition every session must meet */
  and(condition: string): this {
    this.conditions.push(condition);
    return this;
  }

  /** only the sessions of the project named `name`, when one is given */
  inProject(name: string | undefined): this {
    return name === undefined ? this : this.and(`s.project_id = (SELECT id FROM projects WHERE name = ${this.param(name)})`);
  }

  /** the conditions, for a WHERE */
  get where(): string {
    return this.conditions.join(" AND ");
  }
}
