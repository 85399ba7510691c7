/** The `bonsai serve` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { DATA_DIR_OPTION } from "./command";

export const serveSpec: CommandSpec = {
  name: "serve",
  summary:
    "Run Bonsai in your browser: serves the app and its backend on 127.0.0.1 only and prints the address with a private token. Runs until Ctrl-C.",
  positionals: [],
  options: [
    { name: "port", short: "p", type: "integer", valueName: "N", description: "port to listen on (default: the port of the last run on this data folder when it is free, else a free port; 0 = any free port)" },
    { ...DATA_DIR_OPTION, description: "Bonsai's data folder (default: the desktop app's, e.g. ~/.config/Bonsai)" },
    { name: "no-open", type: "boolean", description: "do not open the browser, only print the address" },
  ],
};
