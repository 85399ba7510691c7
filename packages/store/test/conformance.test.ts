/** The store API's conformance suite (src/conformance/) run against the SQLite store. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openStore } from "../src/index";
import { describeSessionStoreConformance } from "../src/conformance/index";
import { FIXTURES } from "./support";

describeSessionStoreConformance(
  "SQLite (openStore)",
  () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-conformance-"));
    const store = openStore({ path: path.join(dir, "bonsai.db"), writeThrough: true });
    return {
      store,
      dir,
      cleanup: () => {
        store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  { fixturesDir: path.join(FIXTURES, "real") },
);
