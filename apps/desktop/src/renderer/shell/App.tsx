/** The app shell: header, session list, the open session's view, import progress, notifications. */
import { useEffect, useState, type DragEvent } from "react";
import { features } from "../features";
import { useBonsai } from "../state/store";
import { signingInToArchive } from "../state/ui-slice";
import { connectStoreToBackend } from "../state/backend-events";
import { api, missingToken, mode, signInWithToken } from "../lib/api";
import { Notifications } from "./Notifications";
import { Onboarding } from "./Onboarding";
import { RemoveSessionDialog } from "./RemoveSessionDialog";
import { GitImportDialog } from "./GitImportDialog";
import { SessionCommits } from "./SessionCommits";
import { SessionList } from "./SessionList";
import { SimpleTree } from "./SimpleTree";
import { Splitter } from "./Splitter";
import { watchNarrowWindow } from "./narrow";
import { chooseAndImport, exportOpenSession, importDropped, registerFileInput } from "./import";
import { runMenuCommand } from "./menu-commands";

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer.types).includes("Files");
}

export function App() {
  const [dragging, setDragging] = useState(false);
  const narrow = useBonsai((s) => s.narrow);
  const drawer = useBonsai((s) => s.narrow && s.openSessionId !== null);
  const drawerOpen = useBonsai((s) => s.sessionsDrawerOpen);
  const openId = useBonsai((s) => s.openSessionId);
  const setSessionsDrawer = useBonsai((s) => s.setSessionsDrawer);
  // a team archive imports nothing: a dropped file is refused here, not sent to be refused
  const hostReadOnly = useBonsai((s) => s.appInfo?.readOnly ?? null);

  useEffect(() => watchNarrowWindow((n) => useBonsai.getState().setNarrow(n)), []);
  // a session chosen in the drawer: the drawer makes way for it
  useEffect(() => setSessionsDrawer(false), [openId, setSessionsDrawer]);

  useEffect(() => {
    const off = connectStoreToBackend();
    const offMenu = api().on("menuCommand", ({ command }) => runMenuCommand(command));
    return () => {
      off();
      offMenu();
    };
  }, []);

  return (
    <div
      className={`app${dragging ? " is-dragging" : ""}`}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = hostReadOnly === null ? "copy" : "none";
        if (hostReadOnly === null) setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setDragging(false);
        if (hostReadOnly !== null) useBonsai.getState().notify("info", `Nothing is imported here (${hostReadOnly}): push sessions with bonsai push.`);
        else void importDropped(Array.from(e.dataTransfer.files));
      }}
    >
      <Header />
      <div className="app__body">
        {drawer ? (
          drawerOpen ? (
            <>
              <Sidebar drawer />
              <div className="app__drawer-scrim" onClick={() => setSessionsDrawer(false)} data-testid="sessions-drawer-scrim" />
            </>
          ) : null
        ) : (
          <>
            <Sidebar />
            {narrow ? null : <Splitter pane="sidebar" grows="right" label="Resize the session list" />}
          </>
        )}
        <main className="app__main">
          <SessionArea />
        </main>
      </div>
      {drawer ? <Dock foot /> : null}
      {features.Overlays ? <features.Overlays /> : null}
      <RemoveSessionDialog />
      {dragging ? <div className="drop-overlay">Drop .jsonl session files to import them</div> : null}
    </div>
  );
}

function Header() {
  const connection = useBonsai((s) => s.connection);
  const importing = useBonsai((s) => s.importProgress !== null);
  const importFiles = useBonsai((s) => s.importFiles);
  const session = useBonsai((s) => s.session);
  // on a team archive nothing is imported: the header says whose archive this is instead
  const archive = useBonsai((s) => s.appInfo?.archive);
  const archiveSignIn = useBonsai(signingInToArchive);
  const [gitImport, setGitImport] = useState(false);
  return (
    <header className="app__header">
      <SessionsDrawerToggle />
      <span className="app__brand">Bonsai</span>
      {archive ? (
        <span className="app__archive" data-testid="archive-badge" title={`Team archive: you read ${archive.role === "admin" ? "every project" : archive.projects.join(", ") || "no project yet"}`}>
          <span className="app__archive-word">Archive · </span>
          {archive.user}
        </span>
      ) : archiveSignIn ? null : (
        <>
          <button type="button" data-testid="import-button" onClick={() => void chooseAndImport()} disabled={importing}>
            Import…
          </button>
          <button type="button" data-testid="git-import-button" onClick={() => setGitImport(true)} disabled={importing} title="Import the sessions a repository keeps on Entire's checkpoint branch, linked to their commits">
            From Git…
          </button>
        </>
      )}
      {gitImport ? <GitImportDialog onClose={() => setGitImport(false)} /> : null}
      <input
        ref={registerFileInput}
        type="file"
        accept=".jsonl,application/x-ndjson,application/jsonl"
        multiple
        hidden
        data-testid="import-input"
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          e.currentTarget.value = "";
          void importFiles(files);
        }}
      />
      {session ? (
        <>
          <button type="button" data-testid="export-button" onClick={() => void exportOpenSession("jsonl")}>
            Export JSONL
          </button>
          <button type="button" data-testid="export-html" onClick={() => void exportOpenSession("html")} title="One offline page: the tree and the transcript of the path to the leaf">
            Export HTML
          </button>
        </>
      ) : null}
      <span className="app__spacer" />
      {features.HeaderItems ? <features.HeaderItems /> : null}
      {connection !== "open" ? (
        <span className="app__connection" role="status">
          {connection === "connecting"
            ? "Connecting to the backend…"
            : mode === "electron"
              ? "Disconnected"
              : connection === "refused"
                ? <TokenSignIn refused />
                : missingToken()
                  ? <TokenSignIn />
                  : "Disconnected from bonsai serve — reconnecting…"}
        </span>
      ) : null}
    </header>
  );
}

/**
 * Whether the page's own server is a team archive (kept as the store's archiveSignIn): its /health
 * (open to anyone, no data) names the archive's schema; `bonsai serve` has no such answer. Only what
 * the signed-out page says and offers depends on it.
 */
function useServedByArchive(): boolean {
  const archive = useBonsai((s) => s.archiveSignIn);
  const setUi = useBonsai((s) => s.setUi);
  useEffect(() => {
    let live = true;
    fetch("/health", { cache: "no-store", credentials: "omit" })
      .then((r) => (r.ok ? (r.json() as Promise<unknown>) : null))
      .then(
        (body) => {
          if (live && typeof body === "object" && body !== null && typeof (body as { schema?: unknown }).schema === "number") setUi({ archiveSignIn: true });
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [setUi]);
  return archive;
}

/**
 * Browser mode without a token, or with one the server refused (`refused`): the token typed in (a
 * team archive's; `bonsai serve` prints an address that carries its own).
 */
function TokenSignIn({ refused = false }: { refused?: boolean }) {
  const [token, setToken] = useState("");
  const archive = useServedByArchive();
  return (
    <form
      className="app__sign-in"
      data-testid="token-sign-in"
      onSubmit={(e) => {
        e.preventDefault();
        if (token.trim() !== "") signInWithToken(token);
      }}
    >
      {refused ? (
        <strong className="app__refused" data-testid="token-refused" title="mistyped, revoked, or a token of another server">
          This token was refused.
        </strong>
      ) : null}
      <span data-testid="token-sign-in-words">
        {archive
          ? "Sign in to this team archive with your token (your archive's admin gives you one)"
          : "Not connected: open the full address that `bonsai serve` printed, or sign in with your token"}
      </span>
      <input type="password" value={token} onChange={(e) => setToken(e.target.value)} aria-label="Access token" autoComplete="off" spellCheck={false} data-testid="token-input" />
      <button type="submit" disabled={token.trim() === ""} data-testid="token-sign-in-button">
        Sign in
      </button>
    </form>
  );
}

/** In a narrow window with a session open, the session list is a drawer: this button opens and closes it. */
function SessionsDrawerToggle() {
  const shown = useBonsai((s) => s.narrow && s.openSessionId !== null);
  const open = useBonsai((s) => s.sessionsDrawerOpen);
  const setOpen = useBonsai((s) => s.setSessionsDrawer);
  if (!shown) return null;
  return (
    <button type="button" className="app__drawer-toggle" aria-expanded={open} aria-controls="app-sessions" onClick={() => setOpen(!open)} data-testid="sessions-drawer-toggle" title="Show or hide the session list">
      ☰ Sessions
    </button>
  );
}

/**
 * The session list, and under it the one stack of notifications (it takes its own room: it never
 * covers a control). In a narrow window with a session open it is a drawer over the session (Escape
 * or a click beside it closes it).
 */
function Sidebar({ drawer = false }: { drawer?: boolean }) {
  const width = useBonsai((s) => s.panes.sidebar);
  const narrow = useBonsai((s) => s.narrow);
  const setSessionsDrawer = useBonsai((s) => s.setSessionsDrawer);
  return (
    <aside
      id="app-sessions"
      className={`app__sidebar${drawer ? " app__drawer" : ""}`}
      style={{ width: narrow ? undefined : width }}
      aria-label="Sessions and messages"
      data-testid="sessions-pane"
      data-drawer={drawer ? "true" : "false"}
      onKeyDown={(e) => {
        if (drawer && e.key === "Escape") {
          e.stopPropagation();
          setSessionsDrawer(false);
        }
      }}
    >
      <div className="app__sidebar-list">
        <SessionList />
      </div>
      {drawer ? null : <Dock />}
    </aside>
  );
}

/** Import progress and notifications: under the session list, or along the window's foot while the list is a drawer. */
function Dock({ foot = false }: { foot?: boolean }) {
  return (
    <div className={`app__dock${foot ? " app__dock-foot" : ""}`} data-testid="dock">
      <ImportStatus />
      <Notifications />
    </div>
  );
}

function SessionArea() {
  const openId = useBonsai((s) => s.openSessionId);
  const session = useBonsai((s) => s.session);
  const skeleton = useBonsai((s) => s.skeleton);
  const loading = useBonsai((s) => s.sessionLoading);
  const error = useBonsai((s) => s.sessionError);
  const noSessions = useBonsai((s) => s.sessionsLoaded && s.sessions.length === 0);
  const onArchive = useBonsai((s) => s.appInfo?.archive !== undefined);
  const archiveSignIn = useBonsai(signingInToArchive);
  if (!openId && archiveSignIn) return <div className="empty">Sign in with your token above to read your team's sessions.</div>;
  if (!openId && onArchive) {
    return (
      <div className="empty" data-testid="archive-empty">
        {noSessions ? "No session in your projects yet: sessions appear here once someone pushes them (bonsai push --to this address --project NAME)." : "Choose a session on the left."}
      </div>
    );
  }
  if (!openId) return noSessions ? <Onboarding /> : <div className="empty">Choose a session on the left, or import one.</div>;
  if (error) return <div className="empty error" role="alert">Could not open the session: {error}</div>;
  if (loading || !session || !skeleton) return <div className="empty">Opening…</div>;
  const View = features.SessionView;
  return (
    <section className="session-area" data-testid="session-view" data-session-id={openId}>
      <h1 className="session-area__title" title={[session.title.slice(0, 2000), session.cwd].filter(Boolean).join("\n")}>
        {session.title || "(untitled session)"}
      </h1>
      <SessionCommits sessionId={openId} />
      {View ? <View sessionId={openId} session={session} skeleton={skeleton} /> : <SimpleTree skeleton={skeleton} />}
    </section>
  );
}

const megabytes = (bytes: number) => (bytes / 1e6).toLocaleString(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

function ImportStatus() {
  const progress = useBonsai((s) => s.importProgress);
  const results = useBonsai((s) => s.lastImport);
  const dismiss = useBonsai((s) => s.dismissImport);
  const cancel = useBonsai((s) => s.cancelImport);
  if (progress) {
    const pct = progress.total > 0 ? Math.round((100 * progress.done) / progress.total) : null;
    const which = progress.fileCount > 1 ? `file ${progress.fileIndex + 1} of ${progress.fileCount}: ` : "";
    if (progress.phase === "uploading") {
      return (
        <div className="import-status" role="status" data-testid="import-progress" data-phase="uploading">
          <div>
            Uploading {which}
            {progress.source}
          </div>
          <progress max={100} value={pct ?? undefined} aria-label="Upload progress" />
          <div className="import-status__row">
            <span className="import-status__bytes" data-testid="upload-bytes">
              {megabytes(progress.done)} of {megabytes(progress.total)} MB
            </span>
            <button type="button" onClick={cancel} data-testid="import-cancel">
              Cancel
            </button>
          </div>
        </div>
      );
    }
    return (
      <div className="import-status" role="status" data-testid="import-progress" data-phase="importing">
        <div>
          Importing {which}
          {progress.source}
        </div>
        <progress max={100} value={pct ?? undefined} aria-label="Import progress" />
        <div className="import-status__row">
          <span className="import-status__bytes">{progress.total > 0 ? `${megabytes(progress.done)} of ${megabytes(progress.total)} MB read` : "reading…"}</span>
          <button type="button" onClick={cancel} data-testid="import-cancel">
            Cancel
          </button>
        </div>
      </div>
    );
  }
  if (!results || results.length === 0) return null;
  const failed = results.filter((r) => !r.ok);
  const warnings = results.flatMap((r) => r.warnings.map((w) => `${r.source}: ${w}`));
  return (
    <div className={`import-status${failed.length ? " has-errors" : ""}`} role="status" data-testid="import-result">
      <div>
        Imported {results.length - failed.length} of {results.length} file{results.length === 1 ? "" : "s"} (
        {results.reduce((n, r) => n + r.entriesImported, 0).toLocaleString()} entries).
      </div>
      {failed.map((r) => (
        <div key={r.source} className="error">
          {r.source}: {r.error}
        </div>
      ))}
      {warnings.slice(0, 5).map((w) => (
        <div key={w} className="warning">
          {w}
        </div>
      ))}
      <button type="button" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
