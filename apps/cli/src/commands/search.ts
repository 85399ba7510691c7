/** `bonsai search QUERY [--session ID] [--limit N] [--json]`: full-text search over every stored session. */
import { UserError } from "../errors";
import { column, printJson } from "../output";
import { withCliStore } from "../store-db";
import type { Command } from "./command";
import { searchSpec } from "./search.spec";

export const searchCommand: Command = {
  spec: searchSpec,
  async run(args, io) {
    const query = args.positionals[0] as string;
    if (query.trim() === "") throw new UserError("the search query is empty", 2);
    await withCliStore({ create: false }, (store) => {
      const sessionOption = args.options.session as string | undefined;
      const sessionId = sessionOption === undefined ? undefined : store.resolveSessionId(sessionOption);
      const limit = args.options.limit as number | undefined;
      const hits = store.search(query, { ...(sessionId ? { sessionId } : {}), ...(limit !== undefined ? { limit } : {}) });
      if (args.options.json) {
        printJson(io, hits);
        return;
      }
      if (hits.length === 0) {
        io.stdout(`no matches for ${JSON.stringify(query)}\n`);
        return;
      }
      // ids are printed whole (they are what the other commands take), padded to line up
      const sw = Math.max(...hits.map((h) => h.sessionId.length));
      const ew = Math.max(...hits.map((h) => h.entryId.length));
      for (const h of hits) {
        io.stdout(`${h.sessionId.padEnd(sw)}  ${h.entryId.padEnd(ew)}  ${column(h.role ?? h.type, 12)} ${h.snippet}\n`);
      }
    });
  },
};
