/**
 * Session files imported on the desktop join the OS's recent documents (app.addRecentDocument):
 * those chosen in File → Import's dialog and those opened from the OS, once the backend stored them.
 * A wrapper of the backend's dispatch, so every import main forwards is seen, whoever asked for it.
 */
import type { CallResult, Dispatch } from "@bonsai/ipc";

/** the methods whose results name files imported where they are (paths, not uploaded copies) */
const IMPORTS_BY_PATH = new Set(["importFromDialog", "importSessions"]);

/** The files an import call stored (its ok results' sources); none for any other call or a failed one. */
export function importedFiles(method: unknown, result: CallResult): string[] {
  if (typeof method !== "string" || !IMPORTS_BY_PATH.has(method) || !result.ok) return [];
  const value = result.value as { results?: readonly { source: string; ok: boolean }[] } | null;
  return (value?.results ?? []).filter((r) => r.ok).map((r) => r.source);
}

/** `dispatch`, telling `remember` each file an import stored. */
export function rememberingImports(dispatch: Dispatch, remember: (file: string) => void): Dispatch {
  return async (method, params) => {
    const result = await dispatch(method, params);
    for (const file of importedFiles(method, result)) remember(file);
    return result;
  };
}
