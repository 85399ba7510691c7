/**
 * The sessions in Bonsai, grouped by project folder (on a team archive: by project, each row with
 * who pushed it, and a filter by project and by person, applied in the archive, which gives the list a page at a time): agent (when not pi), title (renamable, kept in Bonsai), counts
 * (entries, compactions, branches, what the model sees from the leaf), a filter and a sort
 * (remembered), and per session a menu: rename, export, remove from Bonsai. A year of sessions
 * (thousands) is drawn RENDER_STEP rows at a time: more as the list is scrolled to its end.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import type { SessionSummaryDto } from "@bonsai/ipc";
import { agentName } from "../lib/agents";
import { useGrowingCount } from "../lib/growing-count";
import { loadPref, savePref } from "../lib/persist";
import { useBonsai } from "../state/store";
import { signingInToArchive } from "../state/ui-slice";
import { exportOpenSession } from "./import";
import { archiveFacets, drawnGroups, filterSessions, groupSessions, SORTS, type SessionSort } from "./session-groups";
import { CommitsCount } from "./SessionCommits";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

/** rows drawn at first, and added each time the end of the drawn rows scrolls into view */
export const RENDER_STEP = 150;

function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFormat.format(d);
}

const isSort = (v: unknown): v is SessionSort => typeof v === "string" && SORTS.some((s) => s.value === v);

export function SessionList() {
  const sessions = useBonsai((s) => s.sessions);
  const loaded = useBonsai((s) => s.sessionsLoaded);
  const error = useBonsai((s) => s.sessionsError);
  const archive = useBonsai((s) => s.appInfo?.archive);
  const archiveSignIn = useBonsai(signingInToArchive);
  const more = useBonsai((s) => s.sessionsNext !== null);
  const query = useBonsai((s) => s.sessionQuery);
  const listed = useBonsai((s) => s.listedQuery);
  const setQuery = useBonsai((s) => s.setSessionQuery);
  const [filter, setFilter] = useState(query.text ?? "");
  const [sort, setSort] = useState<SessionSort>(() => loadPref("sessionSort", "updated", isSort));
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  // on a team archive the archive filters (every matching session, page by page): one project, one person, the text
  const project = query.project ?? "";
  const person = query.pushedBy ?? "";
  useEffect(() => {
    if (!archive || filter === (query.text ?? "")) return;
    const typing = setTimeout(() => void setQuery({ ...query, text: filter }), 300);
    return () => clearTimeout(typing);
  }, [archive, filter, query, setQuery]);
  const loadedFacets = useMemo(() => archiveFacets(sessions), [sessions]);
  const facets = archive ? { projects: archive.projects, people: archive.people ?? loadedFacets.people } : loadedFacets;
  const groups = useMemo(() => groupSessions(archive ? sessions : filterSessions(sessions, filter), sort), [archive, sessions, filter, sort]);
  // how many rows are drawn (thousands of rows would cost the page seconds): grows as the list scrolls
  const { count: drawn, more: drawMore } = useGrowingCount(RENDER_STEP, `${sort}\u0000${filter}\u0000${project}\u0000${person}`);

  if (!loaded) {
    return (
      <div className="session-list__empty" data-testid="session-list-unavailable">
        {archiveSignIn ? "Your projects' sessions appear here once you sign in." : error ? `Sessions cannot be shown: ${error}` : "Loading sessions…"}
      </div>
    );
  }
  if (sessions.length === 0 && !archive) {
    return (
      <div className="session-list__empty" data-testid="session-list-empty">
        No sessions yet. Import session files (.jsonl) of pi / oh-my-pi, Claude Code or Codex with the Import button, drop them on this window, or start from the agents' folders shown on the right.
      </div>
    );
  }
  const shown = groups.reduce((n, g) => n + g.sessions.length, 0);
  const { visible, cut, rowsLeft } = drawnGroups(groups, closed, drawn);
  return (
    <div className="session-list-box">
      <div className="session-list__tools">
        <input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="Filter sessions…"
          aria-label="Filter sessions by title, folder or agent"
          data-testid="session-filter"
        />
        <select
          value={sort}
          aria-label="Sort sessions"
          data-testid="session-sort"
          onChange={(e) => {
            const value = e.target.value as SessionSort;
            setSort(value);
            savePref("sessionSort", value);
          }}
        >
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      {facets.projects.length > 0 ? (
        <div className="session-list__tools session-list__archive" data-testid="archive-filters">
          <select value={project} aria-label="Show the sessions of one project" data-testid="archive-project-filter" onChange={(e) => void setQuery({ ...query, project: e.target.value })}>
            <option value="">All projects</option>
            {facets.projects.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
          <select value={person} aria-label="Show the sessions one person pushed" data-testid="archive-person-filter" onChange={(e) => void setQuery({ ...query, pushedBy: e.target.value })}>
            <option value="">Everyone</option>
            {facets.people.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="session-list__count" aria-live="polite" data-testid="session-count">
        {archive ? archiveCount(sessions.length, more) : shown === sessions.length ? `${sessions.length} session${sessions.length === 1 ? "" : "s"}` : `${shown} of ${sessions.length} sessions`}
      </div>
      <ul className="session-list" data-testid="session-list" aria-label="Sessions" data-archive-filter={archive ? (listed.text ?? "") : undefined}>
        {visible.map(({ group: g, rows }) => {
          const open = !closed.has(g.folder);
          return (
            <li key={g.folder} className="session-group" data-testid="session-group" data-folder={g.folder}>
              <button
                type="button"
                className="session-group__head"
                aria-expanded={open}
                title={g.project !== undefined ? `Project ${g.project} in the team archive` : g.folder || "Sessions without a project folder"}
                onClick={() =>
                  setClosed((c) => {
                    const next = new Set(c);
                    if (next.has(g.folder)) next.delete(g.folder);
                    else next.add(g.folder);
                    return next;
                  })
                }
              >
                <span aria-hidden>{open ? "▾" : "▸"}</span> <span className="session-group__name">{g.name}</span>
                <span className="session-group__count">{g.sessions.length}</span>
              </button>
              {rows.length > 0 ? (
                <ul className="session-group__items" aria-label={`Sessions in ${g.name}`}>
                  {rows.map((s) => (
                    <SessionItem key={s.id} s={s} />
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
        {cut ? (
          <li ref={drawMore} className="session-list__more" data-testid="session-list-more">
            {rowsLeft > 0 ? `${rowsLeft.toLocaleString()} more…` : "more…"}
          </li>
        ) : null}
        {shown === 0 ? (
          <li className="session-list__empty" data-testid="session-list-no-match">
            {filter.trim() !== "" ? (
              <>No session matches “{filter}”.</>
            ) : archive && project === "" && person === "" ? (
              "No session in the archive that you may read yet: sessions get in with bonsai push."
            ) : (
              "No session matches these filters."
            )}
          </li>
        ) : null}
        {!cut && more ? <ShowMore loaded={sessions.length} /> : null}
      </ul>
    </div>
  );
}

/** On a team archive: how many sessions are loaded, and whether more are in the archive. */
function archiveCount(loaded: number, more: boolean): string {
  return more ? `${loaded.toLocaleString()} loaded · more in the archive` : `${loaded.toLocaleString()} session${loaded === 1 ? "" : "s"}`;
}

/** The end of a team archive's loaded sessions: the next page, in the archive's order and filters. */
function ShowMore({ loaded }: { loaded: number }) {
  const loading = useBonsai((s) => s.loadingMoreSessions);
  const loadMore = useBonsai((s) => s.loadMoreSessions);
  return (
    <li className="session-list__more">
      <button type="button" className="session-list__show-more" data-testid="session-list-show-more" disabled={loading} onClick={() => void loadMore()}>
        {loading ? "Loading more sessions…" : `Show more (${loaded.toLocaleString()} loaded)`}
      </button>
    </li>
  );
}

function Counts({ s }: { s: SessionSummaryDto }) {
  const pending = "…";
  // an archived session's other counts are known once it is opened
  if (s.archive) {
    return (
      <span className="session-item__counts">
        <span data-testid="session-entry-count">{s.entryCount.toLocaleString()}</span> entries
      </span>
    );
  }
  return (
    <span className="session-item__counts">
      <span data-testid="session-entry-count">{s.entryCount.toLocaleString()}</span> entries · <span data-testid="session-compaction-count">{s.compactionCount}</span>{" "}
      {s.compactionCount === 1 ? "compaction" : "compactions"} · <span data-testid="session-branches">{s.branches ?? pending}</span> {s.branches === 1 ? "branch" : "branches"} ·{" "}
      <span data-testid="session-tokens" title="What the model saw from the active leaf: its last reported usage plus the estimate of what came after, else the estimate">
        {s.contextTokens === null ? pending : compact.format(s.contextTokens)}
      </span>{" "}
      tok
      {s.estimatedTokens !== null && s.estimatedTokens !== s.contextTokens ? (
        <span data-testid="session-estimated-tokens" className="session-item__estimate" title="The estimate of the messages in the file (no system prompt, no tools)">
          {" "}
          ({compact.format(s.estimatedTokens)} est. in file)
        </span>
      ) : null}
    </span>
  );
}

function SessionItem({ s }: { s: SessionSummaryDto }) {
  const openId = useBonsai((st) => st.openSessionId);
  const openSession = useBonsai((st) => st.openSession);
  const renaming = useBonsai((st) => st.renamingSessionId === s.id);
  const isOpen = s.id === openId;
  return (
    <li className={`session-item${isOpen ? " is-open" : ""}`} data-testid="session-row" data-session-id={s.id}>
      {renaming ? (
        <RenameForm s={s} />
      ) : (
        <button
          type="button"
          className="session-item__open"
          data-testid="session-item"
          data-session-id={s.id}
          aria-current={isOpen ? "true" : undefined}
          onClick={() => void openSession(s.id)}
        >
          <span className="session-item__title" title={s.title || undefined} data-testid="session-title">
            {s.agent !== "pi" ? (
              <span className={`session-item__agent session-item__agent--${s.agent}`} data-testid="session-agent">
                {agentName(s.agent)}
              </span>
            ) : null}
            {s.title || "(untitled session)"}
            {s.customTitle ? <span className="bz-sr-only"> (renamed in Bonsai)</span> : null}
          </span>
          <span className="session-item__meta">
            <time dateTime={s.updatedAt}>{formatDate(s.updatedAt)}</time>
          </span>
          {s.archive ? (
            <span className="session-item__meta" data-testid="session-archive" title={`Pushed to ${s.archive.project} by ${s.archive.pushedBy}`}>
              <span data-testid="session-project">{s.archive.project}</span> · pushed by <span data-testid="session-person">{s.archive.pushedBy}</span>
            </span>
          ) : null}
          <Counts s={s} />
          <CommitsCount sessionId={s.id} />
          {s.archive ? null : s.readOnly ? (
            <span className="session-item__detached" data-testid="session-read-only" title={s.readOnly}>
              read-only — Continue in pi to change it
            </span>
          ) : s.detached ? (
            <span className="session-item__detached" data-testid="session-detached" title={s.detached}>
              changes kept in Bonsai only — export to write them
            </span>
          ) : null}
        </button>
      )}
      {renaming ? null : <SessionMenu s={s} />}
    </li>
  );
}

function RenameForm({ s }: { s: SessionSummaryDto }) {
  const renameSession = useBonsai((st) => st.renameSession);
  const setRenaming = useBonsai((st) => st.setRenaming);
  const [value, setValue] = useState(s.title);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.select(), []);
  const save = async (title: string | null) => {
    const err = await renameSession(s.id, title);
    if (err) setError(err);
    else setRenaming(null);
  };
  return (
    <form
      className="session-item__rename"
      onSubmit={(e) => {
        e.preventDefault();
        void save(value.trim() === "" ? null : value);
      }}
    >
      <input
        ref={input}
        value={value}
        maxLength={200}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            setRenaming(null);
          }
        }}
        aria-label="Session title (kept in Bonsai; the agent's file is not changed)"
        data-testid="session-rename-input"
      />
      <div className="bz-row">
        <button type="submit" data-testid="session-rename-save">
          Save
        </button>
        {s.customTitle ? (
          <button type="button" onClick={() => void save(null)} data-testid="session-rename-reset" title="Use the title from the session file again">
            Reset
          </button>
        ) : null}
        <button type="button" onClick={() => setRenaming(null)}>
          Cancel
        </button>
      </div>
      {error ? (
        <div className="error" role="alert">
          {error}
        </div>
      ) : null}
    </form>
  );
}

/** The ⋯ menu of a session: rename, export (JSONL, Markdown, HTML), remove from Bonsai. */
function SessionMenu({ s }: { s: SessionSummaryDto }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const setRenaming = useBonsai((st) => st.setRenaming);
  const setRemoving = useBonsai((st) => st.setRemoving);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener("mousedown", close);
    box.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
    return () => window.removeEventListener("mousedown", close);
  }, [open]);
  const exportAs = async (format: "jsonl" | "markdown" | "html") => {
    // export works on the open session: open this one first
    const st = useBonsai.getState();
    if (st.openSessionId !== s.id) await st.openSession(s.id);
    await exportOpenSession(format);
  };
  const item = (label: string, testId: string, action: () => void) => (
    <button
      type="button"
      role="menuitem"
      data-testid={testId}
      onClick={() => {
        setOpen(false);
        action();
      }}
    >
      {label}
    </button>
  );
  return (
    <div className="session-menu" ref={box}>
      <button
        type="button"
        className="session-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Actions for ${s.title || "this session"}`}
        data-testid="session-menu"
        onClick={() => setOpen((o) => !o)}
      >
        ⋯
      </button>
      {open ? (
        <div
          className="session-menu__list"
          role="menu"
          aria-label={`Actions for ${s.title || "this session"}`}
          onKeyDown={(e) => {
            const items = [...(box.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
            const at = items.indexOf(document.activeElement as HTMLElement);
            if (e.key === "Escape") {
              setOpen(false);
              box.current?.querySelector<HTMLElement>("[aria-haspopup]")?.focus();
            } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
              e.preventDefault();
              items[(at + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length]?.focus();
            }
          }}
        >
          {s.archive ? null : item("Rename…", "session-menu-rename", () => setRenaming(s.id))}
          {item("Export as JSONL", "session-menu-export-jsonl", () => void exportAs("jsonl"))}
          {item("Export as Markdown", "session-menu-export-markdown", () => void exportAs("markdown"))}
          {item("Export as HTML", "session-menu-export-html", () => void exportAs("html"))}
          {s.archive ? null : item("Remove from Bonsai…", "session-menu-remove", () => setRemoving(s.id))}
        </div>
      ) : null}
    </div>
  );
}
