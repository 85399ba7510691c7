/**
 * Queries sent as named (prepared) statements: PostgreSQL parses and plans a query's text once per
 * connection rather than once per call. The archive's reads are a few fixed shapes called many times
 * (the planning of a search costs as much as running it), so each text gets a name from its hash.
 * Only a bounded number of texts are named, so that a stream of unusual query shapes cannot grow every
 * connection's statement cache without end; beyond that a text is sent unnamed.
 */
import { createHash } from "node:crypto";
import type pg from "pg";

const MAX_NAMED = 256;
const names = new Map<string, string>();

export function namedQuery(text: string, values: readonly unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `bonsai_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
    names.set(text, name);
  }
  return name === undefined ? { text, values: [...values] } : { name, text, values: [...values] };
}
