/**
 * A real engine over a real SQLite store in a temp dir, talking to the loopback model server.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { SessionEntry, SettingsPatch } from "@bonsai/core";
import { openStore, type SqliteSessionStore } from "@bonsai/store";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { useMockOpenAiServer, type MockOpenAiServer } from "@bonsai/testkit";
import { createEngine, type CreateEngineOptions, type Engine, type EngineEventName, type EngineEvents } from "../src/index";

export interface Harness {
  dir: string;
  store: SqliteSessionStore;
  engine: Engine;
  sessionId: string;
  events: { name: EngineEventName; payload: EngineEvents[EngineEventName] }[];
  /** appends entries in order (each at the leaf unless parentId given); returns the stored entries */
  add(...specs: ({ type: string; [k: string]: unknown } & { parentId?: string | null })[]): SessionEntry[];
  names(): EngineEventName[];
  close(): Promise<void>;
}

export function modelSettings(server: MockOpenAiServer, extra: SettingsPatch = {}): SettingsPatch {
  return {
    ...extra,
    model: { baseUrl: server.baseUrl, model: "mock-model", contextWindow: 200000, apiKeyEnv: "BONSAI_TEST_KEY", ...extra.model },
    retry: { enabled: true, maxRetries: 3, baseDelayMs: 1, ...extra.retry },
  };
}

export async function harness(options: Partial<CreateEngineOptions> & { settings?: SettingsPatch } = {}): Promise<Harness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-engine-"));
  const store = openStore({ path: path.join(dir, "bonsai.db") });
  const sessionId = store.createSession({ cwd: "/p" }).id;
  const engine = createEngine({ store, env: { BONSAI_TEST_KEY: "sk-test" }, dataDir: dir, ...options });
  const events: Harness["events"] = [];
  engine.onAny((name, payload) => events.push({ name, payload }));
  return {
    dir,
    store,
    engine,
    sessionId,
    events,
    add: (...specs) =>
      specs.map(({ parentId, ...body }) => store.appendEntry(sessionId, body, parentId === undefined ? {} : { parentId })),
    names: () => events.map((e) => e.name),
    close: async () => {
      await engine.close();
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function eventsOf<K extends EngineEventName>(h: Harness, name: K): EngineEvents[K][] {
  return h.events.filter((e) => e.name === name).map((e) => e.payload as EngineEvents[K]);
}

/**
 * The file's loopback model server (reset before each test) and the test's harness (closed after
 * it): `const t = useLoopbackHarness()`, then `t.h = await harness(...)` and `t.server()`.
 */
export function useLoopbackHarness(): { server: () => MockOpenAiServer; h: Harness | undefined } {
  const server = useMockOpenAiServer({ beforeAll, afterAll, beforeEach });
  const state: { server: () => MockOpenAiServer; h: Harness | undefined } = { server, h: undefined };
  afterEach(async () => {
    await state.h?.close();
    state.h = undefined;
  });
  return state;
}
