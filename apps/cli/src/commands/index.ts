/**
 * The command registry: one line per command (each owner adds its own). A line pairs the command's
 * spec (commands/<name>.spec.ts: name, summary, arguments; cheap) with a loader that imports the
 * implementation (commands/<name>.ts) only when that command runs. `bonsai --help`, a usage error
 * or `bonsai context FILE` therefore never load the engine, the store or the server; in the bundle
 * each implementation is its own chunk (scripts/build.mjs: esbuild code splitting).
 */
import type { CommandEntry } from "./command";
import { contextSpec } from "./context.spec";
import { migrateSpec } from "./migrate.spec";
import { planSpec } from "./plan.spec";
import { pruneSpec } from "./prune.spec";
import { branchSpec } from "./branch.spec";
import { serveSpec } from "./serve.spec";
import { compactSpec } from "./compact.spec";
import { navigateSpec } from "./navigate.spec";
import { promptSpec } from "./prompt.spec";
import { importSpec } from "./import.spec";
import { lsSpec } from "./ls.spec";
import { exportSpec } from "./export.spec";
import { searchSpec } from "./search.spec";
import { whatifSpec } from "./whatif.spec";
import { amnesiaSpec } from "./amnesia.spec";
import { configSpec } from "./config.spec";
import { teamSpec } from "./team.spec";
import { pushSpec } from "./push.spec";

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
