// The team archive's tests start a private PostgreSQL server (packages/testkit/src/postgres-cluster.ts)
// from the server binaries installed on the machine: Debian's `postgresql` package (or BONSAI_PG_BIN).
// ensurePostgres() makes sure they are there before the tests run: as root with apt-get it installs
// them; otherwise it says the one command to run.
import { spawnSync } from "node:child_process";
// the tests' own lookup (Node 24 runs the TypeScript module as it is)
import { findPostgresBin } from "../packages/testkit/src/postgres-cluster.ts";

const ROOT = "/usr/lib/postgresql";
const INSTALL = "apt-get update && apt-get install -y postgresql";

const serverBinaries = () => "bin" in findPostgresBin();

/** true when PostgreSQL's server binaries are (now) installed; false with the reason printed when they cannot be */
export function ensurePostgres() {
  if (serverBinaries()) return true;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
  if (root && hasApt && !process.env.BONSAI_PG_BIN) {
    console.log(`PostgreSQL's server is missing (${ROOT}/*/bin/initdb): installing it with apt (${INSTALL})…`);
    const r = spawnSync("sh", ["-c", INSTALL], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    if (r.status === 0 && serverBinaries()) return true;
    console.error(`Installing PostgreSQL failed (exit ${r.status}); the team archive's tests need it.`);
    return false;
  }
  console.error(`The team archive's tests need PostgreSQL's server binaries, which are missing. Install them with:\n\n  sudo sh -c '${INSTALL}'\n\n(or point BONSAI_PG_BIN at a folder holding initdb and pg_ctl), then run the tests again.`);
  return false;
}
