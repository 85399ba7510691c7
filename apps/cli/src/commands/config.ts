/**
 * `bonsai config get [KEY]`, `bonsai config set KEY VALUE...`, `bonsai config unset KEY`: the
 * settings kept in the database of the data folder (--data-dir, else BONSAI_DB, else the desktop
 * app's), validated exactly as the app validates them. This is how the host settings the browser
 * page may not change (folders, the API key's variable, the model's address) are set.
 */
import * as fs from "node:fs";
import { DEFAULT_SETTINGS } from "@bonsai/core";
import { SettingsManager, SettingsValidationError } from "@bonsai/engine";
import { openStoreForCli } from "../engine-session";
import { cliDbPath } from "../store-db";
import { UsageError, UserError } from "../errors";
import { printJson, warn } from "../output";
import { formatValue, parseValue, patchOf, requireKey, SETTING_KEYS, settingValue } from "../settings-keys";
import type { Command } from "./command";

export const configCommand: Command = {
  run(args, io) {
    const [action, key, ...words] = args.positionals as [string, string | undefined, ...string[]];
    if (!["get", "set", "unset"].includes(action)) throw new UsageError(`unknown action ${JSON.stringify(action)}: use get, set or unset`);
    if (action !== "get" && key === undefined) throw new UsageError(`bonsai config ${action} needs a KEY`);
    if (action === "get" && words.length > 0) throw new UsageError("bonsai config get takes at most one KEY");
    if (action === "unset" && words.length > 0) throw new UsageError("bonsai config unset takes no VALUE");
    if (key !== undefined) requireKey(key);
    const database = cliDbPath(args);
    const store = openStoreForCli(args);
    try {
      const settings = new SettingsManager(store);
      for (const e of settings.loadErrors) warn(io, `stored setting ignored: ${e.message}`);
      if (action === "get") {
        const current = settings.get();
        if (key !== undefined) {
          const value = settingValue(current, key);
          if (args.options.json) printJson(io, value);
          else io.stdout(Array.isArray(value) ? value.map((v) => `${v}\n`).join("") : `${formatValue(value)}\n`);
          return;
        }
        if (args.options.json) {
          printJson(io, current);
          return;
        }
        io.stdout(`# settings in ${database}\n`);
        for (const k of SETTING_KEYS) io.stdout(`${k} = ${JSON.stringify(settingValue(current, k))}\n`);
        return;
      }
      const value = action === "set" ? parseValue(key!, words) : settingValue(DEFAULT_SETTINGS, key!);
      let next;
      try {
        next = settings.update(patchOf(key!, value));
      } catch (err) {
        if (err instanceof SettingsValidationError) throw new UserError(err.message);
        throw err;
      }
      const stored = settingValue(next, key!);
      if (key === "hooksDir" || key === "sessionDirs") {
        for (const dir of (Array.isArray(stored) ? stored : [stored]).filter((d): d is string => typeof d === "string" && d !== "")) {
          if (!fs.existsSync(dir)) warn(io, `${dir} does not exist (yet)`);
        }
      }
      if (args.options.json) {
        printJson(io, { key, value: stored, database });
        return;
      }
      io.stdout(`${key} = ${JSON.stringify(stored)}\n`);
      const when = key === "hooksDir" ? "loads hook modules from it when it starts" : "uses it from its next call";
      io.stdout(`saved in ${database}; a running \`bonsai serve\` or desktop app ${when}\n`);
    } finally {
      store.close();
    }
  },
};
