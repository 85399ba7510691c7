/**
 * The command registry: one line per command (each owner adds its own). A line pairs the command's
 * argument spec (commands/<name>.args.ts: name, summary, arguments; cheap) with a loader that imports the
 * implementation (commands/<name>.ts) only when that command runs. `bonsai --help`, a usage error
 * or `bonsai context FILE` therefore never load the engine, the store or the server; in the bundle
 * each implementation is its own chunk (scripts/build.mjs: esbuild code splitting).
 */
import type { CommandEntry } from "./command";
import { contextSpec } from "./context.args";
import { migrateSpec } from "./migrate.args";
import { planSpec } from "./plan.args";
import { pruneSpec } from "./prune.args";
import { branchSpec } from "./branch.args";
import { serveSpec } from "./serve.args";
import { compactSpec } from "./compact.args";
import { navigateSpec } from "./navigate.args";
import { promptSpec } from "./prompt.args";
import { importSpec } from "./import.args";
import { lsSpec } from "./ls.args";
import { exportSpec } from "./export.args";
import { searchSpec } from "./search.args";
import { whatifSpec } from "./whatif.args";
import { amnesiaSpec } from "./amnesia.args";
import { configSpec } from "./config.args";
import { teamSpec } from "./team.args";
import { pushSpec } from "./push.args";

export const COMMANDS: readonly CommandEntry[] = [
  { spec: contextSpec, load: async () => (await import("./context")).contextCommand },
  { spec: migrateSpec, load: async () => (await import("./migrate")).migrateCommand },
  { spec: planSpec, load: async () => (await import("./plan")).planCommand },
  { spec: pruneSpec, load: async () => (await import("./prune")).pruneCommand },
  { spec: branchSpec, load: async () => (await import("./branch")).branchCommand },
  { spec: serveSpec, load: async () => (await import("./serve")).serveCommand },
  { spec: compactSpec, load: async () => (await import("./compact")).compactCommand },
  { spec: navigateSpec, load: async () => (await import("./navigate")).navigateCommand },
  { spec: promptSpec, load: async () => (await import("./prompt")).promptCommand },
  { spec: importSpec, load: async () => (await import("./import")).importCommand },
  { spec: lsSpec, load: async () => (await import("./ls")).lsCommand },
  { spec: exportSpec, load: async () => (await import("./export")).exportCommand },
  { spec: searchSpec, load: async () => (await import("./search")).searchCommand },
  { spec: whatifSpec, load: async () => (await import("./whatif")).whatifCommand },
  { spec: amnesiaSpec, load: async () => (await import("./amnesia")).amnesiaCommand },
  { spec: configSpec, load: async () => (await import("./config")).configCommand },
  { spec: teamSpec, load: async () => (await import("./team")).teamCommand },
  { spec: pushSpec, load: async () => (await import("./push")).pushCommand },
];
