/**
 * The store API's conformance suite (src/conformance/) run against the SQLite store: with every
 * capability, and opened without write-through (a store that declares it does not write files).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openStore } from "../src/index";
import { describeSessionStoreConformance, type StoreFactory } from "../src/conformance/index";
import { FIXTURES } from "./support";

const fixturesDir = path.join(FIXTURES, "real");

function sqliteStore(writeThrough: boolean): StoreFactory {
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-conformance-"));
    const store = openStore({ path: path.join(dir, "bonsai.db"), writeThrough });
    return {
      store,
      dir,
      cleanup: () => {
        store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  };
}

describeSessionStoreConformance("SQLite (openStore)", sqliteStore(true), { fixturesDir });

describeSessionStoreConformance("SQLite without write-through", sqliteStore(false), { fixturesDir, capabilities: { writeThrough: false } });
