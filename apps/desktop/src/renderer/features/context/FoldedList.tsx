/**
 * A long context's message list as the page draws it (fold.ts): the messages the backend listed in
 * their places, and the row that stands for the ones it left out, with the button that asks for them.
 */
import type { RefObject } from "react";
import type { ContextPreview } from "@bonsai/ipc";
import { useGrowingCount } from "../../lib/growing-count";
import { useBonsai } from "../../state/store";
import { formatInt } from "../tree/format";
import { placeListed, type ListedMessages } from "./fold";

/** the preview's messages in their places (placeListed), and the action listing all of them */
export function useListedMessages(preview: ContextPreview | null): ListedMessages<ContextPreview["messages"][number]> & { listAll: () => void; listing: boolean } {
  const listAll = useBonsai((s) => s.listAllContextMessages);
  const listing = useBonsai((s) => preview !== null && s.contextListedAll === `${preview.sessionId}:${preview.leafId ?? ""}`);
  return { ...placeListed(preview?.messages ?? [], preview?.unlisted ?? null), listAll: () => void listAll(), listing };
}

/** the row in place of the messages not listed, with the button that lists them all (test ids `${testIds}-folded`, `${testIds}-list-all`) */
export function HiddenMessagesRow({ hidden, total, listAll, listing, testIds }: { hidden: number; total: number; listAll: () => void; listing: boolean; testIds: string }) {
  return (
    <li className="bz-msg bz-msg-folded" data-testid={`${testIds}-folded`}>
      <span className="bz-msg-preview">{formatInt(hidden)} messages in between are not listed.</span>
      <button type="button" onClick={listAll} disabled={listing} data-testid={`${testIds}-list-all`}>
        {listing ? `Listing all ${formatInt(total)}…` : `List all ${formatInt(total)}`}
      </button>
    </li>
  );
}

/** rows of a message list drawn at first, and added each time the end of the drawn rows scrolls into view */
export const DRAW_STEP = 1000;

/**
 * The first of `rows` to draw: a context listed whole (tens of thousands of messages would cost the
 * page seconds in one go) is drawn DRAW_STEP rows at a time, more as its end scrolls into view
 * (`more`: the row after the drawn ones). `key` names the list (a session and node): a new one starts
 * again from the first step.
 */
export function useDrawnRows<T>(rows: readonly T[], key: string): { drawn: readonly T[]; left: number; more: RefObject<HTMLLIElement | null> } {
  const { count, more } = useGrowingCount(DRAW_STEP, key);
  return { drawn: rows.length > count ? rows.slice(0, count) : rows, left: Math.max(0, rows.length - count), more };
}

/** the row after the drawn rows of a long list: drawing more when it scrolls into view (test id `${testIds}-more`) */
export function MoreRowsRow({ left, more, testIds }: { left: number; more: RefObject<HTMLLIElement | null>; testIds: string }) {
  return (
    <li ref={more} className="bz-msg bz-msg-folded" data-testid={`${testIds}-more`}>
      <span className="bz-msg-preview">{formatInt(left)} more messages…</span>
    </li>
  );
}

