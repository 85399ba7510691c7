/**
 * What the engine commands (compact, navigate, prompt, applying prune) share: the Bonsai store of
 * the data directory, the SESSION argument (a stored session id or unique prefix, or a session file,
 * which is imported first), and an engine configured from the persisted settings plus the
 * `--model`, `--base-url` and `--offline` flags (not persisted).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { BonsaiError } from "@bonsai/core/errors";
import type { SettingsPatch } from "@bonsai/core";
import { createEngine, type Engine } from "@bonsai/engine";
import { openStore, type SqliteSessionStore } from "@bonsai/store";
import type { ParsedArgs } from "./args";
import { besideBundle } from "./bundle-paths";
import { UserError } from "./errors";
import { sqliteBinding } from "./native-binding";
import { cliDbPath } from "./store-db";
import type { Io } from "./output";

// the options the engine commands share live with the command specs (cheap to load)
export { DATA_DIR_OPTION, MODEL_OPTIONS, SESSION_POSITIONAL } from "./commands/command";

export interface EngineSession {
  store: SqliteSessionStore;
  engine: Engine;
  sessionId: string;
  close(): Promise<void>;
}

function bundledWorker(): URL | undefined {
  const url = besideBundle("compaction-worker.mjs");
  return fs.existsSync(fileURLToPath(url)) ? url : undefined;
}

/** Turns the engine's and the store's refusals (every BonsaiError, whatever its kind) into one-line CLI errors. */
export function userFacing(error: unknown): unknown {
  if (error instanceof BonsaiError) return new UserError(error.message);
  return error;
}


export function openStoreForCli(args: ParsedArgs): SqliteSessionStore {
  try {
    return openStore({ path: cliDbPath(args), nativeBinding: sqliteBinding() });
  } catch (error) {
    throw new UserError(error instanceof Error ? error.message : String(error));
  }
}

/** A session id (or unique prefix) of the store; an existing file is imported and its session used. */
export async function resolveStoredSession(store: SqliteSessionStore, arg: string, io: Io): Promise<string> {
  if (arg.trim() === "") throw new UserError("the session argument is empty");
  if (fs.existsSync(arg) && fs.statSync(arg).isFile()) {
    const report = await store.importFile(path.resolve(arg));
    if (!report.sessionId) throw new UserError(`${arg}: ${report.message}`);
    if (report.status !== "unchanged") io.stderr(`bonsai: ${report.message}\n`);
    return report.sessionId;
  }
  try {
    return store.resolveSessionId(arg);
  } catch (error) {
    throw userFacing(error);
  }
}

/**
 * What the agent wrote to the session's file since a Bonsai process last read it is read first, so
 * that a change is planned from the session as it is (a prune after the agent's new tool outputs
 * prunes them; a compaction is not refused as planned before the agent moved on).
 */
async function readSourceUpToDate(store: SqliteSessionStore, sessionId: string): Promise<void> {
  const s = store.getSession(sessionId);
  if (!s?.sourcePath || s.detached !== null || s.readOnly !== null || !fs.existsSync(s.sourcePath)) return;
  const report = await store.importFile(s.sourcePath);
  if (report.status === "failed") throw new UserError(`${s.sourcePath}: ${report.message}`);
}

/**
 * `writes`: the command changes the session (compact, prune, prompt, a branch summary): a session
 * Bonsai never writes (Claude Code, Codex) is refused before any work is done.
 */
export async function openEngineSession(args: ParsedArgs, io: Io, writes = true): Promise<EngineSession> {
  const store = openStoreForCli(args);
  try {
    const sessionId = await resolveStoredSession(store, args.positionals[0] as string, io);
    const readOnly = writes ? store.getSession(sessionId)?.readOnly : null;
    if (readOnly) throw new UserError(`${sessionId}: ${readOnly} (bonsai export ${sessionId} --format pi -o FILE makes a pi copy)`);
    if (writes) await readSourceUpToDate(store, sessionId);
    const overrides: SettingsPatch = {};
    const model = args.options.model as string | undefined;
    const baseUrl = args.options["base-url"] as string | undefined;
    if (model !== undefined || baseUrl !== undefined) overrides.model = { ...(model !== undefined ? { model } : {}), ...(baseUrl !== undefined ? { baseUrl } : {}) };
    const worker = bundledWorker();
    const dbPath = cliDbPath(args);
    let engine: Engine;
    try {
      engine = createEngine({
        store,
        settings: overrides,
        offline: args.options.offline === true,
        dataDir: path.dirname(dbPath),
        ...(worker ? { worker: { url: worker, dbPath, nativeBinding: sqliteBinding(), size: 1 } } : {}),
      });
    } catch (error) {
      throw userFacing(error);
    }
    engine.on("hook_error", (e) => io.stderr(`bonsai: warning: hook ${e.source} (${e.event}) failed: ${e.error}\n`));
    await engine.loadUserHooks();
    return {
      store,
      engine,
      sessionId,
      close: async () => {
        await engine.close();
        store.close();
      },
    };
  } catch (error) {
    store.close();
    throw error;
  }
}

/** Runs `body` with an engine session, closing it and mapping errors either way. */
export async function withEngineSession<T>(args: ParsedArgs, io: Io, body: (s: EngineSession) => Promise<T>, writes = true): Promise<T> {
  const session = await openEngineSession(args, io, writes);
  try {
    return await body(session);
  } catch (error) {
    throw userFacing(error);
  } finally {
    await session.close();
  }
}
