import type { Migration } from "./types";

/**
 * Partial indexes on the rows a pruning plan and a branch summary plan look for on a path (their
 * rows only: a third of the entries, and a handful):
 * - `entries_tool_results` covers the columns pruning reads of each tool result (token estimate,
 *   flags, tool name, id): a plan scans these rows alone instead of every row of the path, testing
 *   each row's type and role (the test cost more than reading the results' columns);
 * - `entries_branch_summaries`: the branch summaries of a session (a branch plan takes the file
 *   lists of every one on the abandoned branch, however far back).
 */
export const migration010PlanIndexes: Migration = {
  version: 10,
  name: "plan-indexes",
  up(db) {
    db.exec(`
      CREATE INDEX IF NOT EXISTS entries_tool_results ON entries(session_id, seq, tokens, flags, tool_name, id) WHERE type = 'message' AND role = 'toolResult';
      CREATE INDEX IF NOT EXISTS entries_branch_summaries ON entries(session_id, seq) WHERE type = 'branch_summary';
    `);
  },
};
