/**
 * Gives a Node child process Electron's utility-process `process.parentPort` (over Node's IPC
 * channel). As Electron's port does, it holds messages that arrive before the first listener.
 */
import { EventEmitter } from "node:events";

const port = new EventEmitter();
const held = [];
port.postMessage = (message) => process.send(message);
process.on("message", (data) => {
  if (port.listenerCount("message") === 0) held.push(data);
  else port.emit("message", { data });
});
port.on("newListener", (event) => {
  if (event === "message") setImmediate(() => held.splice(0).forEach((data) => port.emit("message", { data })));
});
process.parentPort = port;
