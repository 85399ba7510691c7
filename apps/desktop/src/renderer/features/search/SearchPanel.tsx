/**
 * Search across all sessions (FTS on the main side); choosing a hit opens its session and reveals the
 * entry. While entries are still being indexed (a big import, sessions `bonsai import` stored), the
 * panel says how many and searches again every REFRESH_MS until the answer is complete.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { api, errorMessage } from "../../lib/api";
import { useBonsai } from "../../state/store";
import { formatTime } from "../tree/format";
import { snippetParts } from "./snippet";

/** how often a search answered before indexing finished is asked again */
const REFRESH_MS = 1500;

export function SearchPanel() {
  const open = useBonsai((s) => s.searchOpen);
  if (!open) return null;
  return <Search />;
}

function Search() {
  const hits = useBonsai((s) => s.searchHits);
  const error = useBonsai((s) => s.searchError);
  const setState = useBonsai((s) => s.setUi);
  const jumpTo = useBonsai((s) => s.jumpTo);
  const [query, setQuery] = useState("");
  const [busy, setBusy] = useState(false);
  /** the query the shown hits answer (the input may have changed since) */
  const [searched, setSearched] = useState("");
  const [active, setActive] = useState(0);
  /** entries not yet indexed when the shown hits were found (0: the answer is complete) */
  const [unindexed, setUnindexed] = useState(0);

  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const close = () => setState({ searchOpen: false });
  /** `again`: the same query asked again as indexing goes on (the chosen hit stays) */
  const search = useCallback(
    async (text: string, again: boolean) => {
      if (!again) setBusy(true);
      try {
        const r = await api().searchSessions({ query: text, limit: 100 });
        setState({ searchHits: r.hits, searchError: null });
        setUnindexed(r.unindexed);
        setSearched(text);
        if (!again) setActive(0);
      } catch (err) {
        setState({ searchError: errorMessage(err), searchHits: [] });
        setUnindexed(0);
      } finally {
        if (!again) setBusy(false);
      }
    },
    [setState],
  );
  const run = async () => {
    if (query.trim() === "") return;
    await search(query, false);
  };
  // while the answer is incomplete it is asked again every REFRESH_MS, whether or not its count
  // moved (indexing waits while a tree is drawn); stops when it is complete or the panel closes
  const incomplete = unindexed > 0;
  useEffect(() => {
    if (!incomplete || searched === "") return;
    const timer = setInterval(() => void search(searched, true), REFRESH_MS);
    return () => clearInterval(timer);
  }, [incomplete, searched, search]);
  const choose = (i: number) => {
    const hit = hits[i];
    if (!hit) return;
    close();
    // a hit opens in the reading view, at its message (its node is selected in the tree too)
    useBonsai.getState().setView("transcript");
    jumpTo(hit.sessionId, hit.entryId);
  };

  return (
    <div className="bz-modal-backdrop" onClick={close}>
      <div className="bz-modal bz-search" role="dialog" aria-modal="true" aria-label="Search sessions" data-testid="search-panel" onClick={(e) => e.stopPropagation()}>
        <form
          className="bz-row"
          onSubmit={(e) => {
            e.preventDefault();
            void run();
          }}
        >
          <input
            ref={input}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") close();
              else if (e.key === "ArrowDown") {
                e.preventDefault();
                setActive((a) => Math.min(hits.length - 1, a + 1));
              } else if (e.key === "ArrowUp") {
                e.preventDefault();
                setActive((a) => Math.max(0, a - 1));
              } else if (e.key === "Enter" && hits.length > 0 && e.altKey) {
                e.preventDefault();
                choose(active);
              }
            }}
            placeholder="Search all sessions…"
            aria-label="Search text"
            data-testid="search-input"
          />
          <button type="submit" disabled={busy} data-testid="search-submit">
            {busy ? "Searching…" : "Search"}
          </button>
        </form>
        {error ? <div className="bz-error" data-testid="search-error">{error}</div> : null}
        {unindexed > 0 && !error ? (
          <div className="bz-search-indexing" role="status" data-testid="search-indexing">
            Indexing for search: {unindexed.toLocaleString("en-US")} {unindexed === 1 ? "entry" : "entries"} to go. These are the matches so far; they update as indexing goes on.
          </div>
        ) : null}
        <ol className="bz-hits" data-testid="search-hits">
          {hits.map((h, i) => (
            <li key={`${h.sessionId}:${h.entryId}`}>
              <button type="button" className={`bz-hit ${i === active ? "bz-hit-active" : ""}`} onClick={() => choose(i)} data-testid="search-hit" data-entry-id={h.entryId} data-session-id={h.sessionId}>
                <span className="bz-hit-head">
                  <strong>{h.sessionTitle || "(untitled)"}</strong>
                  {h.archive ? (
                    <span className="bz-muted" data-testid="search-hit-archive">
                      {" "}
                      · {h.archive.project} · {h.archive.pushedBy}
                    </span>
                  ) : null}{" "}
                  · {h.role ?? h.type} · <span className="bz-muted bz-hit-time">{formatTime(h.timestamp)}</span>
                </span>
                <span className="bz-hit-snippet">
                  {snippetParts(h.snippet, searched).map((p, k) => (p.match ? <mark key={k}>{p.text}</mark> : <span key={k}>{p.text}</span>))}
                </span>
              </button>
            </li>
          ))}
        </ol>
        {hits.length === 0 && !error && !busy ? (
          <div className="bz-muted" data-testid="search-empty">
            {searched === ""
              ? "Enter words to find; Enter searches, ↑/↓ and Alt+Enter choose a hit."
              : `No matches for “${searched}”${unindexed > 0 ? " so far" : ""}.`}
          </div>
        ) : null}
      </div>
    </div>
  );
}
