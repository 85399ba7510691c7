/**
 * "Import from a Git Repository…": the repositories the backend found in the sessions' working
 * folders that hold Entire checkpoints, the desktop app's folder picker, and in browser mode the
 * path of a repository inside the session folders.
 */
import { useEffect, useState } from "react";
import { api, errorMessage } from "../lib/api";
import { useBonsai } from "../state/store";
import { Dialog } from "./Dialog";
import { importGitRepository } from "./git-import";

interface Repository {
  path: string;
  sessions: number;
}

/** The repositories with checkpoints among the sessions' working folders (null while looking). */
export function useGitRepositories(): { repositories: Repository[] | null; error: string | null } {
  const [repositories, setRepositories] = useState<Repository[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const count = useBonsai((s) => s.sessions.length);
  useEffect(() => {
    let live = true;
    api()
      .findGitRepositories()
      .then((r) => live && setRepositories(r.repositories))
      .catch((err: unknown) => live && setError(errorMessage(err)));
    return () => {
      live = false;
    };
  }, [count]);
  return { repositories, error };
}

/** The offered repositories, each with its Import button. */
export function GitRepositoryList({ repositories, onImport }: { repositories: readonly Repository[]; onImport?: () => void }) {
  const importing = useBonsai((s) => s.importProgress !== null);
  return (
    <ul className="onboarding__folders" data-testid="git-repositories">
      {repositories.map((r) => (
        <li key={r.path} data-testid="git-repository">
          <div>
            <code>{r.path}</code>
            <div className="bz-muted">
              Entire checkpoints · working folder of {r.sessions.toLocaleString()} session{r.sessions === 1 ? "" : "s"}
            </div>
          </div>
          <button
            type="button"
            disabled={importing}
            data-testid="git-repository-import"
            aria-label={`Import the Entire checkpoints of ${r.path}`}
            onClick={() => {
              onImport?.();
              void importGitRepository(r.path);
            }}
          >
            Import checkpoints
          </button>
        </li>
      ))}
    </ul>
  );
}

export function GitImportDialog({ onClose }: { onClose(): void }) {
  const nativeDialogs = useBonsai((s) => s.appInfo?.nativeDialogs === true);
  const { repositories, error } = useGitRepositories();
  const [path, setPath] = useState("");
  const start = (chosen?: string) => {
    onClose();
    void importGitRepository(chosen);
  };
  return (
    <Dialog label="Import from a Git Repository" testId="git-import-dialog" onClose={onClose} className="git-import">
      <h2>Import from a Git Repository</h2>
      <p>
        Bonsai reads the sessions a repository keeps on Entire&apos;s <code>entire/checkpoints/v1</code> branch (or its <code>refs/entire/checkpoints/…</code> refs), through git, without changing the repository, and links each session to the commits
        that name its checkpoints. Importing again reads only the checkpoints added since.
      </p>
      {error ? <p className="error">The repositories could not be looked for: {error}</p> : null}
      {repositories && repositories.length > 0 ? <GitRepositoryList repositories={repositories} onImport={onClose} /> : null}
      {nativeDialogs ? (
        <div className="bz-row">
          <button type="button" data-autofocus data-testid="git-import-choose" onClick={() => start()}>
            Choose a repository folder…
          </button>
          <button type="button" onClick={onClose} data-testid="git-import-cancel">
            Cancel
          </button>
        </div>
      ) : (
        <form
          className="git-import__path"
          onSubmit={(e) => {
            e.preventDefault();
            if (path.trim()) start(path.trim());
          }}
        >
          <label htmlFor="git-import-path">Repository folder (inside the session folders)</label>
          <input id="git-import-path" data-autofocus data-testid="git-import-path" value={path} onChange={(e) => setPath(e.currentTarget.value)} placeholder="/path/to/repository" spellCheck={false} />
          <div className="bz-row">
            <button type="submit" disabled={path.trim() === ""} data-testid="git-import-start">
              Import checkpoints
            </button>
            <button type="button" onClick={onClose} data-testid="git-import-cancel">
              Cancel
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
