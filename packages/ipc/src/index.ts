export * from "./names";
export * from "./schemas";
export * from "./contract";
export * from "./errors";
export * from "./dispatch";
export * from "./client";
export * from "./frames";
export * from "./ws-client";
export type { EventSink } from "./event-sink";
