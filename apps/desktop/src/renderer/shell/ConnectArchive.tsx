/**
 * "Connect to team archive…" (the desktop app's File menu opens a window on this page): the
 * archive's address and one's token; the window then opens the archive's own page, signed in with
 * the token for as long as the window stays open. The same page works in a browser at /#connect-archive.
 */
import { useState } from "react";
import { archiveAddress } from "./archive-address";

/** the address fragment that shows this page instead of the app */
export const CONNECT_ARCHIVE_HASH = "#connect-archive";

export function ConnectArchive() {
  const [url, setUrl] = useState("");
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(null);
  return (
    <main className="connect-archive">
      <form
        className="connect-archive__form"
        data-testid="connect-archive"
        onSubmit={(e) => {
          e.preventDefault();
          const answer = archiveAddress(url, token);
          if ("error" in answer) setError(answer.error);
          else window.location.assign(answer.address);
        }}
      >
        <h1>Connect to a team archive</h1>
        <p className="bz-muted">Read your team&apos;s sessions in the projects you belong to. The token stays in this window only, until it closes.</p>
        <label>
          Archive address
          <input type="text" inputMode="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://bonsai.example.com" required data-testid="connect-archive-url" />
        </label>
        <label>
          Your token
          <input type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" spellCheck={false} required data-testid="connect-archive-token" />
        </label>
        {error ? (
          <p className="error" role="alert" data-testid="connect-archive-error">
            {error}
          </p>
        ) : null}
        <button type="submit" className="bz-primary" data-testid="connect-archive-submit">
          Connect
        </button>
      </form>
    </main>
  );
}
