/**
 * What a drop on the window imports. The desktop app knows a dropped file's path (the preload's
 * bonsaiFiles.pathForFile) and imports it where it is, like the Import dialog, so Bonsai's later
 * changes reach the agent's file; a dropped folder imports the sessions inside it. Browser mode
 * (`bonsai serve`, no preload) has no path: the files are uploaded and imported as copies.
 */

/** The preload's one function beside the contract (absent in browser mode). */
export interface HostFiles {
  /** the file's path on disk; "" when it has none (a File the page made itself) */
  pathForFile(file: File): string;
}

declare global {
  interface Window {
    /** set by the Electron preload */
    bonsaiFiles?: HostFiles;
  }
}

export type DropPlan = { kind: "in-place"; paths: string[] } | { kind: "upload"; files: File[] };

/** In place when every dropped file has a path; otherwise (browser mode) an upload of copies. */
export function planDrop(files: readonly File[], host: HostFiles | undefined): DropPlan {
  const paths = host ? files.map((f) => host.pathForFile(f)) : [];
  if (files.length > 0 && paths.length === files.length && paths.every((p) => p !== "")) return { kind: "in-place", paths };
  return { kind: "upload", files: [...files] };
}
