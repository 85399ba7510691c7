/** Sessions from a repository's Entire checkpoint branch, and the commits linked to them. */
export { importGitRepository, copyFolderOf, type GitImportOptions, type GitImportTarget, type GitImportProgress, type GitImportResult, type GitSessionImport } from "./git-import";
export { GitReadError } from "./git";
export { hasCheckpointBranch } from "./checkpoint-branch";
export { commitsOfSession, commitsBySession, sessionsByCommitOrFile, type SessionCommit, type CommitMatch } from "./git-rows";
