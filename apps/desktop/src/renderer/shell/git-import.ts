/**
 * "Import from a Git Repository…": a repository's Entire checkpoints imported by the backend
 * (importGitRepository), its progress shown as any import's (importProgress events of this
 * request; Cancel stops it between sessions), the results listed like a file import's.
 */
import type { ImportResult } from "@bonsai/ipc";
import { api, failureSentence } from "../lib/api";
import { useBonsai } from "../state/store";

let gitCounter = 0;

/** What the import read, in one sentence. */
export function gitImportSentence(r: { repository: string | null; checkpointsRead: number; checkpointsTotal: number; commitsLinked: number; results: readonly ImportResult[] }): string {
  const read = r.checkpointsRead === r.checkpointsTotal ? `${r.checkpointsRead} checkpoint${r.checkpointsRead === 1 ? "" : "s"} read` : `${r.checkpointsRead} new checkpoint${r.checkpointsRead === 1 ? "" : "s"} read (of ${r.checkpointsTotal})`;
  const sessions = r.results.filter((x) => x.ok).length;
  return `${r.repository ?? "The repository"}: ${read}, ${sessions} session${sessions === 1 ? "" : "s"} imported or updated, ${r.commitsLinked} commit${r.commitsLinked === 1 ? "" : "s"} newly linked.`;
}

/**
 * Imports the checkpoints of `path` (one the backend offered, or one inside the session folders),
 * or of the folder the desktop app's picker asks for (no path).
 */
export async function importGitRepository(path?: string): Promise<void> {
  const s = useBonsai.getState();
  if (s.importProgress) return;
  const requestId = `git-import-${++gitCounter}`;
  useBonsai.setState({ importProgress: { requestId, phase: "importing", source: path ?? "a git repository", fileIndex: 0, fileCount: 1, done: 0, total: 0 }, lastImport: null });
  try {
    const r = await api().importGitRepository({ ...(path !== undefined ? { path } : {}), requestId });
    if (r.repository === null) return;
    useBonsai.setState({ lastImport: r.results });
    s.notify("info", r.cancelled ? `Import stopped: ${gitImportSentence(r)}` : gitImportSentence(r));
    await useBonsai.getState().refreshSessions();
  } catch (err) {
    s.notify("error", failureSentence(err, "nothing was imported from the repository"));
  } finally {
    useBonsai.setState({ importProgress: null });
  }
}
