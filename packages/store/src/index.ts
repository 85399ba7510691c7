export * from "./session-store";
export { openStore, SqliteSessionStore, BACKUP_SUFFIX, writeThroughFromEnv, type OpenStoreOptions } from "./sqlite-session-store";
export { toFtsQuery, parseQuery, makeSnippet, snippetMaker } from "./search-text";
export { openDatabase, migrate, NewerDatabaseError, DatabaseOpenError, type OpenDatabaseOptions } from "./database";
export { MIGRATIONS, SCHEMA_VERSION } from "./migrations/index";
export { defaultDataDir, defaultDbPath, defaultSessionDirs, APP_NAME, DB_FILE_NAME } from "./paths";
export { scanPaths } from "./scan";
export { renderMarkdown } from "./markdown";
