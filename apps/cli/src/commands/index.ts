/**
 * The command registry: one line per command module (each owner adds its own).
 */
import type { Command } from "./command";
import { contextCommand } from "./context";
import { migrateCommand } from "./migrate";
import { planCommand } from "./plan";
import { pruneCommand } from "./prune";
import { branchCommand } from "./branch";
import { serveCommand } from "./serve";
import { compactCommand } from "./compact";
import { navigateCommand } from "./navigate";
import { promptCommand } from "./prompt";
import { importCommand } from "./import";
import { lsCommand } from "./ls";
import { exportCommand } from "./export";
import { searchCommand } from "./search";

export const COMMANDS: readonly Command[] = [
  contextCommand,
  migrateCommand,
  planCommand,
  pruneCommand,
  branchCommand,
  serveCommand,
  compactCommand,
  navigateCommand,
  promptCommand,
  importCommand,
  lsCommand,
  exportCommand,
  searchCommand,
];
