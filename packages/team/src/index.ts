export * from "./errors";
export * from "./database";
export * from "./people";
export * from "./redact";
export { parseToken } from "./tokens";
