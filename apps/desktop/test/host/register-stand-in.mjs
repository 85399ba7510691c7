/** `node --import ./register-stand-in.mjs`: `import "electron"` resolves to the recording stand-in. */
import { register } from "node:module";

register(new URL("./resolve-electron.mjs", import.meta.url));
