export { createBackend, backendDbPath, WORKER_WARM_UP_MS, type Backend, type BackendOptions } from "./backend";
export { mapBackendError, IPC_CODE_OF_KIND } from "./error-mapping";
export { contractSnippets } from "./search-snippet";
export { hostSettingsInfo } from "./host-policy";
export { fileKeyProvider, resolveApiKey, API_KEY_FILE, type KeyProvider } from "./keys";
// the browser-mode server (needs `ws`) is a separate entry: import { startServer } from "@bonsai/backend/server"
export { serveBackendOverPort } from "./host";
export type { HostDialogs, SettingChange, FolderSetting, ExportFormat } from "./dialogs";
export { connectBackendOverPort, type PortLike, type PortMessage, type HostInit, type HostAnswers, type RemoteBackend } from "./remote";
