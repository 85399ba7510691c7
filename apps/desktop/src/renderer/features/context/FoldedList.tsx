/**
 * A long message list as the page draws it (fold.ts): the folded list with its "List all" state, kept
 * per list (a session's node), and the row that stands for the messages not listed.
 */
import { useState } from "react";
import { formatInt } from "../tree/format";
import { foldList, type FoldedList } from "./fold";

/** foldList of `items`, all of them once the user asked for the list `key` (a session and node) whole */
export function useFoldedList<T>(items: readonly T[], key: string): FoldedList<T> & { listAll: () => void } {
  const [listedAll, setListedAll] = useState<string | null>(null);
  return { ...foldList(items, listedAll === key), listAll: () => setListedAll(key) };
}

/** the row in place of the messages not listed, with the button that lists them all (test ids `${testIds}-folded`, `${testIds}-list-all`) */
export function HiddenMessagesRow({ hidden, total, listAll, testIds }: { hidden: number; total: number; listAll: () => void; testIds: string }) {
  return (
    <li className="bz-msg bz-msg-folded" data-testid={`${testIds}-folded`}>
      <span className="bz-msg-preview">{formatInt(hidden)} messages in between are not listed.</span>
      <button type="button" onClick={listAll} data-testid={`${testIds}-list-all`}>
        List all {formatInt(total)}
      </button>
    </li>
  );
}
