/** Which SourceFormat reads a file (from its first lines) or a stored session (from its row). */
import { detectSourceOf } from "../foreign/detect";
import { ForeignSources } from "./foreign-import";
import { isForeignFormat } from "../foreign/read-only";
import { READERS_BY_FORMAT } from "../foreign/readers";
import { readHead, type WholeFile } from "../source/source-sync";
import type { StoreContext } from "./context";
import { piFormat } from "./pi-format";
import type { SourceFormat } from "./source-format";

/** each store's foreign files (their incremental readers live as long as the store) */
const foreignOf = new WeakMap<StoreContext, ForeignSources>();

function foreignSources(ctx: StoreContext): ForeignSources {
  let sources = foreignOf.get(ctx);
  if (!sources) {
    sources = new ForeignSources(ctx);
    foreignOf.set(ctx, sources);
    // a session removed: its incremental reader goes with it
    ctx.events.on("session-updated", (e) => {
      if (e.reason === "removed") sources?.forget(e.sessionId);
    });
  }
  return sources;
}

/** The format of a stored session (by its source_format). */
export function formatOfSession(ctx: StoreContext, sourceFormat: string): SourceFormat {
  return isForeignFormat(sourceFormat) ? foreignSources(ctx).format(READERS_BY_FORMAT[sourceFormat]) : piFormat;
}

/** The format of a file, from its first lines; `unknownReason` when it looks like no agent's session. */
export function formatOfFile(ctx: StoreContext, whole: WholeFile): { format: SourceFormat; unknownReason: string | null } {
  const detected = detectSourceOf((bytes) => readHead(whole, bytes));
  if (detected.kind === "foreign") return { format: foreignSources(ctx).format(detected.reader), unknownReason: null };
  return { format: piFormat, unknownReason: detected.unknownReason };
}
