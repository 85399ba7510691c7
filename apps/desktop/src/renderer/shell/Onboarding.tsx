/**
 * First run: the agents' session folders found on this machine, with how many sessions each holds,
 * to import in one click; and the file picker (or drag and drop) for anything else.
 */
import { useEffect, useState } from "react";
import type { SessionFolder } from "@bonsai/ipc";
import { api, errorMessage } from "../lib/api";
import { useBonsai } from "../state/store";
import { chooseAndImport } from "./import";
import { GitRepositoryList, useGitRepositories } from "./GitImportDialog";

export function Onboarding() {
  const [folders, setFolders] = useState<SessionFolder[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const importing = useBonsai((s) => s.importProgress !== null);
  const importFolders = useBonsai((s) => s.importFolders);
  useEffect(() => {
    let live = true;
    api()
      .findSessionFolders()
      .then((r) => live && setFolders(r.folders))
      .catch((err: unknown) => live && setError(errorMessage(err)));
    return () => {
      live = false;
    };
  }, []);
  const total = (folders ?? []).reduce((n, f) => n + f.sessionFiles, 0);
  const { repositories } = useGitRepositories();
  return (
    <section className="onboarding" data-testid="onboarding" aria-labelledby="onboarding-title">
      <h1 id="onboarding-title">Bring in your agent sessions</h1>
      <p>Bonsai reads the sessions (.jsonl) of pi, oh-my-pi, Claude Code and Codex. Opening a session never changes it, and Claude Code and Codex files are never written.</p>
      {error ? <p className="error">The agents' folders could not be looked for: {error}</p> : null}
      {folders === null && !error ? <p className="bz-muted">Looking for the agents' session folders…</p> : null}
      {folders && folders.length > 0 ? (
        <>
          <h2>Found on this machine</h2>
          <ul className="onboarding__folders" data-testid="onboarding-folders">
            {folders.map((f) => (
              <li key={f.key} data-testid="onboarding-folder" data-agent={f.agent}>
                <div>
                  <strong>{f.agent}</strong> <code>{f.path}</code>
                  <div className="bz-muted" data-testid="onboarding-folder-count">
                    {f.sessionFiles.toLocaleString()} session file{f.sessionFiles === 1 ? "" : "s"}
                  </div>
                </div>
                <button type="button" disabled={importing} onClick={() => void importFolders([f.path])} data-testid="onboarding-import-folder" aria-label={`Import the ${f.sessionFiles} sessions of ${f.agent} in ${f.path}`}>
                  Import {f.sessionFiles.toLocaleString()}
                </button>
              </li>
            ))}
          </ul>
          {folders.length > 1 ? (
            <button type="button" disabled={importing} onClick={() => void importFolders(folders.map((f) => f.path))} data-testid="onboarding-import-all">
              Import all {total.toLocaleString()} sessions
            </button>
          ) : null}
        </>
      ) : null}
      {folders && folders.length === 0 ? (
        <p className="bz-muted" data-testid="onboarding-none">
          No agent's session folder was found here (~/.pi/agent/sessions, ~/.omp/agent/sessions, ~/.claude/projects, ~/.codex/sessions, or the folders in Preferences).
        </p>
      ) : null}
      {repositories && repositories.length > 0 ? (
        <>
          <h2>Repositories with Entire checkpoints</h2>
          <p className="bz-muted">The sessions these repositories keep on their checkpoint branch, linked to the commits they produced.</p>
          <GitRepositoryList repositories={repositories} />
        </>
      ) : null}
      <h2>Or pick files</h2>
      <p>
        <button type="button" onClick={() => void chooseAndImport()} disabled={importing} data-testid="onboarding-choose-files">
          Choose session files…
        </button>{" "}
        or drop .jsonl files anywhere on this window.
      </p>
    </section>
  );
}
