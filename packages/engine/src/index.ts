export * from "./compact";
export * from "./prompt-assembly";
export * from "./events";
export * from "./hooks";
export * from "./planner";
export * from "./settings-manager";
export * from "./engine";
export * from "./errors";
