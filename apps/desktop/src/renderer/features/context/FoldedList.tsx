/**
 * A long context's message list as the page draws it (fold.ts): the messages the backend listed in
 * their places, and the row that stands for the ones it left out, with the button that asks for them.
 */
import type { ContextPreview } from "@bonsai/ipc";
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
